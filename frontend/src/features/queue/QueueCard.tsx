import {
  AT_RISK_DAYS,
  shipByDate,
  advanceAvailability,
  daysUntilDue,
  isAtRisk,
  nextStatus,
  type CaseSummary,
  type User,
} from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { StatusBadge } from '../../components/StatusBadge';
import { toast } from '../../components/toastStore';
import { ActionError } from '../case-shared/ActionError';
import { useStageAdvance } from '../case-shared/useStageAdvance';
import { useTransitDays } from '../case-shared/useTransitDays';
import { useCaseCommand } from '../case-shared/useCaseCommand';
import { dueText } from '../case-shared/dueText';
import { CASE_ACTION_TEXTS, DUE_TEXTS } from '../case-shared/texts';
import { QUEUE_TEXTS as T } from './texts';
import { timeInStage } from './timeInStage';

interface QueueCardProps {
  item: CaseSummary;
  user: User;
  now: Date;
  onOpenCase: (id: string) => void;
}

/**
 * One case of My Queue. "Complete Stage & Advance" is the case detail's own: the same decision
 * (`advanceAvailability`), the same command runner (`useCaseCommand`: `fromStatus`, a 409
 * reloads the case and says why) and the same texts.
 */
export function QueueCard({ item, user, now, onOpenCase }: QueueCardProps) {
  const commands = useCaseCommand(item.id);
  // The summary carries everything the advance rule reads; only the notes are left out.
  const { enabled, message } = advanceAvailability({ ...item, notes: [] }, user);
  // A case not yet shipped is due by its ship-by date (the due date minus the lab's transit days).
  const transitDays = useTransitDays(true);
  const atRisk = isAtRisk(item, now, AT_RISK_DAYS, transitDays);
  const shipBy = shipByDate(item, transitDays);
  const days = daysUntilDue({ deliveryDate: shipBy }, now);
  const guidanceId = `queue-guidance-${item.id}`;

  const stageAdvance = useStageAdvance(item, commands, (from) => {
    const to = nextStatus(from);
    if (to) toast(CASE_ACTION_TEXTS.completeAdvance, T.advanced(item.id, to));
  });

  return (
    <li className={`queue-card${atRisk ? ' at-risk' : ''}`} data-case-id={item.id}>
      <button
        type="button"
        className="queue-card__open"
        onClick={() => onOpenCase(item.id)}
        aria-label={T.openCase(item.id, item.patientName)}
      >
        <span className="queue-card__head">
          <span className="mono queue-card__id">{item.id}</span>
          <StatusBadge status={item.status} onHold={item.onHold} />
        </span>
        <strong className="queue-card__patient">{item.patientName}</strong>
        <span className="queue-card__tags">
          {item.priority === 'High' ? (
            <span className="queue-card__priority">{T.highPriority}</span>
          ) : (
            <span className="muted">{T.normalPriority}</span>
          )}
          {atRisk ? <span className="risk-tag">{DUE_TEXTS.atRiskBadge}</span> : null}
        </span>
        <span className="queue-card__meta">
          <span>
            {T.dueDate}: {formatDate(item.deliveryDate)}
            {shipBy !== item.deliveryDate ? (
              <span className="muted">
                {' '}
                · {DUE_TEXTS.shipBy} {formatDate(shipBy)}
              </span>
            ) : null}
            {days !== undefined ? <span className="muted"> · {dueText(days)}</span> : null}
          </span>
          <span>
            <Icon name="clock" /> {T.inStage}: {timeInStage(item.statusEnteredAt, now)}
          </span>
        </span>
      </button>
      <div className="queue-card__actions">
        <button
          type="button"
          className="button button--primary button--block queue-card__advance"
          disabled={!enabled || commands.busy === 'advance'}
          aria-describedby={message ? guidanceId : undefined}
          onClick={stageAdvance.start}
        >
          <Icon name="check" />
          {CASE_ACTION_TEXTS.completeAdvance}
        </button>
        {message ? (
          <p id={guidanceId} className="cd-guidance">
            {message}
          </p>
        ) : null}
        <ActionError message={commands.errors.advance} />
        {stageAdvance.dialog}
      </div>
    </li>
  );
}
