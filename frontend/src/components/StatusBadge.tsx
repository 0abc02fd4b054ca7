import { statusBadgeLabel, statusColour } from '@alignerflow/domain';

/** The status badge of spec section 4: the status colour, or orange 'On Hold' when held. */
export function StatusBadge({
  status,
  onHold = false,
  label,
}: {
  status: string;
  onHold?: boolean;
  label?: string;
}) {
  const colour = statusColour(status, onHold);
  return (
    <span className={`badge badge--${colour}`} data-colour={colour}>
      {label ?? statusBadgeLabel(status, onHold)}
    </span>
  );
}
