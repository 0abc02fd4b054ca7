import { useId } from 'react';
import { daysUntilExpiry, localDay, LOT_EXPIRY_WARNING_DAYS, type Lot } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { MATERIALS_TEXTS as T } from './texts';

/** A lot's expiry as the register flags it: expired, expiring within the warning days, or nothing. */
function expiryFlag(lot: Lot, today: string): { text: string; level: 'expired' | 'soon' } | null {
  const days = daysUntilExpiry(lot, today);
  if (days === undefined) return null;
  if (days < 0) return { text: T.expired, level: 'expired' };
  return days <= LOT_EXPIRY_WARNING_DAYS ? { text: T.expiresSoon(days), level: 'soon' } : null;
}

/** The lots register, newest first, each with its expiry warning and its printable label. */
export function LotList({ lots, onLabel }: { lots: Lot[] | null; onLabel: (lot: Lot) => void }) {
  const titleId = useId();
  const today = localDay(new Date());
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{T.lots}</h2>
      {!lots ? (
        <p className="muted" role="status">
          {T.loading}
        </p>
      ) : lots.length === 0 ? (
        <p className="empty">{T.noLots}</p>
      ) : (
        <ul className="mt-lots">
          {lots.map((lot) => {
            const flag = expiryFlag(lot, today);
            return (
              <li key={lot.lotNumber} className={`mt-lot${flag ? ` mt-lot--${flag.level}` : ''}`}>
                <div className="mt-lot__main">
                  <span className="mono mt-lot__number">{lot.lotNumber}</span>
                  <span>
                    {lot.product} <span className="muted">· {T.kinds[lot.kind] ?? lot.kind}</span>
                  </span>
                  <span className="muted mt-lot__meta">
                    {lot.supplier ? `${lot.supplier} · ` : ''}
                    {lot.expiresOn ? `${T.expiresOn} ${formatDate(lot.expiresOn)}` : T.noExpiry} · {T.addedBy}{' '}
                    {lot.addedBy}
                  </span>
                  {flag ? <span className={`mt-flag mt-flag--${flag.level}`}>{flag.text}</span> : null}
                </div>
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={T.labelTitle(lot.lotNumber)}
                  onClick={() => onLabel(lot)}
                >
                  <Icon name="printer" />
                  {T.label}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
