import { STATUS_LABELS, type CaseSummary } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';
import { DOCTOR_TEXTS } from './texts';
import { FollowUpBadge } from '../case-shared/CaseLinks';

export function DoctorCaseCard({ item, onOpen }: { item: CaseSummary; onOpen: (id: string) => void }) {
  const completed = item.status === STATUS_LABELS.Completed;
  const awaitingMe = item.status === STATUS_LABELS.DoctorApproval;
  const pending = item.status === STATUS_LABELS.PendingApproval;
  return (
    <li className={`doctor-card${awaitingMe ? ' doctor-card--action' : ''}`}>
      <button type="button" className="doctor-card__open" onClick={() => onOpen(item.id)}>
        <span className="doctor-card__head">
          <span>
            <strong className="doctor-card__patient">{item.patientName}</strong>
            <span className="mono muted small">
              {item.id}
              <FollowUpBadge item={item} />
            </span>
          </span>
          <StatusBadge
            status={item.status}
            onHold={item.onHold}
            label={completed && !item.onHold ? DOCTOR_TEXTS.viewStaging : undefined}
          />
        </span>
        <dl className="doctor-card__facts">
          <div>
            <dt>{DOCTOR_TEXTS.type}</dt>
            <dd>{item.type}</dd>
          </div>
          <div>
            <dt>{DOCTOR_TEXTS.dueDate}</dt>
            <dd>{formatDate(item.deliveryDate)}</dd>
          </div>
        </dl>
        {awaitingMe ? (
          <span className="doctor-card__note doctor-card__note--action">{DOCTOR_TEXTS.actionRequired}</span>
        ) : null}
        {pending ? <span className="doctor-card__note">{DOCTOR_TEXTS.awaitingManager}</span> : null}
      </button>
    </li>
  );
}
