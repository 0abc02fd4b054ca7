import { useCache } from '../../api/cache';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { StatusBadge } from '../../components/StatusBadge';
import { CASE_SCREEN_TEXTS } from './texts';

/** Stand-in for the case detail view: id, patient, status and the way back. */
export function CaseDetailPlaceholder({ caseId, onBack }: { caseId: string; onBack: () => void }) {
  const item = useCache((state) => state.cases.find((candidate) => candidate.id === caseId));
  return (
    <div className="page">
      <button type="button" className="button button--ghost" onClick={onBack}>
        <Icon name="back" />
        {CASE_SCREEN_TEXTS.backToDashboard}
      </button>
      {item ? (
        <section className="panel" aria-labelledby="case-title">
          <h1 id="case-title">{item.patientName}</h1>
          <dl className="facts">
            <div>
              <dt>{CASE_SCREEN_TEXTS.caseId}</dt>
              <dd className="mono">{item.id}</dd>
            </div>
            <div>
              <dt>{CASE_SCREEN_TEXTS.patient}</dt>
              <dd>{item.patientName}</dd>
            </div>
            <div>
              <dt>{CASE_SCREEN_TEXTS.status}</dt>
              <dd>
                <StatusBadge status={item.status} onHold={item.onHold} />
              </dd>
            </div>
            <div>
              <dt>{CASE_SCREEN_TEXTS.dueDate}</dt>
              <dd>{formatDate(item.deliveryDate)}</dd>
            </div>
          </dl>
          <p className="muted">{CASE_SCREEN_TEXTS.detailComing}</p>
        </section>
      ) : (
        <p className="empty">{CASE_SCREEN_TEXTS.notFound}</p>
      )}
    </div>
  );
}
