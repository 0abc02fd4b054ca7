import type { CaseSummary } from '@alignerflow/domain';
import { Icon } from '../../components/Icon';
import { DASHBOARD_TEXTS } from './texts';

export interface CaseActionHandlers {
  busyId: string | null;
  onToggleHold: (item: CaseSummary) => void;
  onEdit: (item: CaseSummary) => void;
  onDelete: (item: CaseSummary) => void;
}

/** Manager row actions of the table: hold or resume, edit, delete. */
export function CaseActionButtons({
  item,
  busyId,
  onToggleHold,
  onEdit,
  onDelete,
}: { item: CaseSummary } & CaseActionHandlers) {
  const busy = busyId === item.id;
  const stop = (action: (item: CaseSummary) => void) => (event: React.MouseEvent) => {
    event.stopPropagation();
    action(item);
  };
  const holdLabel = item.onHold ? DASHBOARD_TEXTS.resume : DASHBOARD_TEXTS.hold;
  return (
    <div className="row-actions">
      <button
        type="button"
        className="icon-button"
        onClick={stop(onToggleHold)}
        disabled={busy}
        aria-label={`${holdLabel} ${item.id}`}
        title={holdLabel}
      >
        <Icon name={item.onHold ? 'play' : 'pause'} />
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={stop(onEdit)}
        disabled={busy}
        aria-label={`${DASHBOARD_TEXTS.edit} ${item.id}`}
        title={DASHBOARD_TEXTS.edit}
      >
        <Icon name="edit" />
      </button>
      <button
        type="button"
        className="icon-button icon-button--danger"
        onClick={stop(onDelete)}
        disabled={busy}
        aria-label={`${DASHBOARD_TEXTS.delete} ${item.id}`}
        title={DASHBOARD_TEXTS.delete}
      >
        <Icon name="trash" />
      </button>
    </div>
  );
}
