import type { CaseSummary } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';
import { daysUntilDue, shipByDate } from '@alignerflow/domain';
import { dueText } from '../case-shared/dueText';
import { DUE_TEXTS } from '../case-shared/texts';
import { DASHBOARD_TEXTS } from './texts';

/**
 * Cases due within 2 days that are not yet at Packaging & Labeling, most urgent first. A case not
 * yet shipped counts from its ship-by date (the due date minus the lab's transit days), as the
 * at-risk rule does.
 */
export function AtRiskPanel({
  cases,
  onOpenCase,
  transitDays = 0,
}: {
  cases: CaseSummary[];
  onOpenCase: (id: string) => void;
  transitDays?: number;
}) {
  const now = new Date();
  const sorted = cases
    .map((item) => {
      const shipBy = shipByDate(item, transitDays);
      return { item, shipBy, days: daysUntilDue({ deliveryDate: shipBy }, now) ?? 0 };
    })
    .sort((a, b) => a.days - b.days);
  return (
    <section className="panel panel--risk" aria-labelledby="at-risk">
      <div className="panel__header">
        <h2 id="at-risk">
          {DASHBOARD_TEXTS.atRisk} <span className="count">{cases.length}</span>
        </h2>
        <p className="muted small">{DASHBOARD_TEXTS.atRiskHint}</p>
      </div>
      {sorted.length === 0 ? (
        <p className="muted">{DASHBOARD_TEXTS.noneAtRisk}</p>
      ) : (
        <ul className="risk-list">
          {sorted.map(({ item, shipBy, days }) => (
            <li key={item.id}>
              <button type="button" className="risk-item" onClick={() => onOpenCase(item.id)}>
                <span className="risk-item__main">
                  <strong>{item.patientName}</strong> <span className="muted">{item.id}</span>
                </span>
                <StatusBadge status={item.status} onHold={item.onHold} />
                <span
                  className={days < 0 ? 'text-danger' : 'text-warning'}
                  title={formatDate(item.deliveryDate)}
                >
                  {shipBy !== item.deliveryDate ? `${DUE_TEXTS.shipBy} ${formatDate(shipBy)} · ` : null}
                  {dueText(days)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
