import { useEffect, useState } from 'react';
import { formatMoney, type AgingReport } from '@alignerflow/domain';
import { billingApi, errorText } from './billingApi';
import { BILLING_SCREEN_TEXTS as T } from './texts';

const BUCKETS = ['current', 'days1to30', 'days31to60', 'days61to90', 'over90', 'total'] as const;

/** The Manager's aging: what is open, by days past due, loaded again with `version`. */
export function AgingTiles({ currency, version }: { currency: string; version: number }) {
  const [aging, setAging] = useState<AgingReport | null>(null);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    let current = true;
    billingApi.aging().then(
      (report) => current && setAging(report),
      (error: unknown) => current && setProblem(errorText(error)),
    );
    return () => {
      current = false;
    };
  }, [version]);
  return (
    <section aria-label={T.aging} className="billing-aging">
      <h2 className="visually-hidden">{T.aging}</h2>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <ul className="tiles billing-aging__tiles">
        {BUCKETS.map((bucket) => (
          <li key={bucket} className={`tile billing-aging__tile billing-aging__tile--${bucket}`}>
            <span className="tile__label">{T.agingLabels[bucket]}</span>
            <strong className="tile__value">
              {aging ? formatMoney(aging.totals[bucket], currency) : '…'}
            </strong>
          </li>
        ))}
      </ul>
    </section>
  );
}
