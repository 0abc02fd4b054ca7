import {
  overdueText,
  remainingDays,
  stageProgressPercent,
  type StagingAction,
  type StagingEntry,
} from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { STAGING_SCREEN_TEXTS as TEXTS } from './texts';

const ACTIONS: Record<StagingEntry['status'], StagingAction> = {
  'Not Started': 'start',
  'In Progress': 'complete',
  Completed: 'reopen',
};

const STATUS_CLASS: Record<StagingEntry['status'], string> = {
  'Not Started': 'not-started',
  'In Progress': 'in-progress',
  Completed: 'completed',
};

interface StageRowProps {
  entry: StagingEntry;
  wearDays: number;
  now: Date;
  nextUp: boolean;
  /** Whether the viewer may press the stage's button (the shared decider says so). */
  allowed: (action: StagingAction) => boolean;
  busy: boolean;
  onAction: (entry: StagingEntry, action: StagingAction) => void;
}

/** One aligner stage: status, dates, wear progress with remaining days or 'Overdue by N day(s)'. */
export function StageRow({ entry, wearDays, now, nextUp, allowed, busy, onAction }: StageRowProps) {
  const action = ACTIONS[entry.status];
  const overdue = overdueText(entry, wearDays, now);
  const remaining = remainingDays(entry, wearDays, now);
  const percent = stageProgressPercent(entry, wearDays, now);
  const statusClass = STATUS_CLASS[entry.status];
  const titleId = `stage-${entry.stageNumber}-title`;
  return (
    <li
      className={`stage-row stage-row--${statusClass}${nextUp ? ' stage-row--next' : ''}`}
      aria-labelledby={titleId}
    >
      <div className="stage-row__main">
        <div className="stage-row__title">
          <strong id={titleId}>{TEXTS.stage(entry.stageNumber)}</strong>
          <span className={`stage-status stage-status--${statusClass}`}>{entry.status}</span>
          {nextUp ? <span className="stage-row__next">{TEXTS.nextUpTag}</span> : null}
        </div>
        <div className="stage-row__dates small muted">
          {entry.startDate ? (
            <span>
              {TEXTS.started} {formatDate(entry.startDate)}
            </span>
          ) : null}
          {entry.status === 'Completed' && entry.endDate ? (
            <span>
              {TEXTS.completed} {formatDate(entry.endDate)}
            </span>
          ) : null}
        </div>
      </div>
      <div className="stage-row__wear">
        <div
          className={`stage-bar${overdue ? ' stage-bar--overdue' : ''}`}
          role="progressbar"
          aria-label={TEXTS.stageProgress(entry.stageNumber)}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <span style={{ width: `${percent}%` }} />
        </div>
        {overdue ? (
          <span className="stage-row__overdue">{overdue}</span>
        ) : entry.status !== 'Completed' ? (
          <span className={`small${entry.status === 'Not Started' ? ' muted' : ''}`}>
            {TEXTS.remaining(remaining)}
          </span>
        ) : null}
      </div>
      <div className="stage-row__action">
        {allowed(action) ? (
          <button
            type="button"
            className={`button button--small ${entry.status === 'Not Started' && nextUp ? 'button--primary' : 'button--secondary'}`}
            onClick={() => onAction(entry, action)}
            disabled={busy}
            aria-describedby={titleId}
          >
            {TEXTS.actionFor[entry.status]}
          </button>
        ) : null}
      </div>
    </li>
  );
}
