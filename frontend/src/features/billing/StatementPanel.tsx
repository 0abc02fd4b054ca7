import { useEffect, useId, useState } from 'react';
import { formatMoney, type Statement } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { billingApi, billingLinks, errorText } from './billingApi';
import { BILLING_SCREEN_TEXTS as T } from './texts';
import { Fact } from '../../components/Fact';

/** A doctor's month: opening, entries with their running balance, closing; and its PDF. */
export function StatementPanel({ doctor, initialMonth }: { doctor: string; initialMonth: string }) {
  const monthId = useId();
  const [month, setMonth] = useState(initialMonth);
  const [statement, setStatement] = useState<Statement | null>(null);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    if (!/^\d{4}-\d{2}$/.test(month)) return;
    let current = true;
    billingApi.statement(doctor, month).then(
      (answer) => {
        if (!current) return;
        setStatement(answer);
        setProblem(undefined);
      },
      (error: unknown) => current && setProblem(errorText(error)),
    );
    return () => {
      current = false;
    };
  }, [doctor, month]);
  const money = (minor: number) => formatMoney(minor, statement?.currency ?? 'USD');
  return (
    <section className="panel billing-statement" aria-labelledby={`${monthId}-title`}>
      <h2 id={`${monthId}-title`}>{T.statement}</h2>
      <div className="billing-statement__controls">
        <label className="field" htmlFor={monthId}>
          <span className="field__label">{T.month}</span>
          <input id={monthId} type="month" value={month} onChange={(event) => setMonth(event.target.value)} />
        </label>
        <a className="button button--secondary" href={billingLinks.statementPdf(doctor, month)} download>
          {T.statementPdf}
        </a>
      </div>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {statement ? (
        <>
          <dl className="billing-totals">
            {(
              [
                [T.opening, statement.opening],
                [T.invoiced, statement.invoiced],
                [T.paid, statement.paid],
                [T.credited, statement.credited],
                [T.closing, statement.closing],
              ] as const
            ).map(([label, value]) => (
              <Fact key={label} term={label} value={money(value)} />
            ))}
          </dl>
          {statement.entries.length === 0 ? (
            <p className="muted">{T.noEntries}</p>
          ) : (
            <ul className="billing-list">
              {statement.entries.map((entry, index) => (
                <li key={index}>
                  {formatDate(entry.date)} · {T.entryLabels[entry.kind]} {entry.number} ·{' '}
                  {money(entry.amount)} → {money(entry.balance)}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </section>
  );
}
