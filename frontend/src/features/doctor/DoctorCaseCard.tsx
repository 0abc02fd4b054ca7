import { STATUS_LABELS, type CaseSummary } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';
import { DOCTOR_TEXTS } from './texts';
import { FollowUpBadge } from '../case-shared/CaseLinks';
import { Fact } from '../../components/Fact';

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
          <Fact term={DOCTOR_TEXTS.type} value={item.type} />
          <Fact term={DOCTOR_TEXTS.dueDate} value={formatDate(item.deliveryDate)} />
        </dl>
        {awaitingMe ? (
          <span className="doctor-card__note doctor-card__note--action">{DOCTOR_TEXTS.actionRequired}</span>
        ) : null}
        {pending ? <span className="doctor-card__note">{DOCTOR_TEXTS.awaitingManager}</span> : null}
      </button>
    </li>
  );
}
