import { useMemo, useState } from 'react';
import { can, type Case, type User } from '@alignerflow/domain';
import { formatDateTime } from '../../components/formatDateTime';
import { historyLines } from './historyText';
import { CASE_DETAIL_TEXTS as T } from './texts';
import { useCaseHistory } from './useCaseHistory';
import { useCaseVerification } from './useCaseVerification';
import { Fact } from '../../components/Fact';

/**
 * 'History': the case's audit trail — who did what, when, and what changed. A Manager also sees
 * whether the trail still matches its seals (the log's tamper evidence).
 */
export function HistoryTab({ item, user }: { item: Case; user: User }) {
  const { state, retry } = useCaseHistory(item.id, item.version);
  const checksSeals = can(user.role, 'backup');
  const [newestFirst, setNewestFirst] = useState(true);
  const lines = useMemo(() => (state.status === 'ready' ? historyLines(state.entries) : []), [state]);
  const shown = newestFirst ? [...lines].reverse() : lines;

  return (
    <div className="cd-tab">
      <div className="cd-history__bar">
        <h3 className="cd-tab__heading">{T.history}</h3>
        <div className="cd-toggle" role="group" aria-label={T.historyOrder}>
          <button type="button" aria-pressed={newestFirst} onClick={() => setNewestFirst(true)}>
            {T.newestFirst}
          </button>
          <button type="button" aria-pressed={!newestFirst} onClick={() => setNewestFirst(false)}>
            {T.oldestFirst}
          </button>
        </div>
      </div>
      {checksSeals ? <SealCheck caseId={item.id} version={item.version} /> : null}
      {state.status === 'loading' ? (
        <p className="muted" role="status">
          {T.historyLoading}
        </p>
      ) : state.status === 'failed' ? (
        <div role="alert">
          <p className="form-error">{T.historyFailed}</p>
          <p className="small">{state.reason}</p>
          <button type="button" className="button button--small button--secondary" onClick={retry}>
            {T.retry}
          </button>
        </div>
      ) : shown.length === 0 ? (
        <p className="muted">{T.historyEmpty}</p>
      ) : (
        <ol className="cd-history" aria-label={T.history}>
          {shown.map((line) => (
            <li key={line.key} className="cd-history__item">
              <p className="cd-history__sentence">{line.sentence}</p>
              <p className="muted small">
                {line.who} · <time dateTime={line.at}>{formatDateTime(line.at)}</time>
              </p>
              {line.details.length ? (
                <dl className="cd-history__details">
                  {line.details.map((detail) => (
                    <Fact
                      key={detail.label}
                      term={detail.label}
                      value={detail.value}
                      valueClassName="cd-prewrap"
                    />
                  ))}
                </dl>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** The seal check's answer in one line: verified, still sealing, or where it was tampered with. */
function SealCheck({ caseId, version }: { caseId: string; version: number }) {
  const check = useCaseVerification(caseId, version, true);
  if (check.status === 'checking')
    return (
      <p className="cd-seal muted small" role="status">
        {T.sealChecking}
      </p>
    );
  if (check.status === 'failed') return <p className="cd-seal muted small">{T.sealFailed}</p>;
  const { result } = check;
  if (!result.ok)
    return (
      <p className="cd-seal cd-seal--broken" role="alert">
        <strong className="cd-seal__mark">⚠ {T.sealBroken}</strong>
        <span>{T.sealBrokenAt(result.firstBroken ?? '?')}</span>
      </p>
    );
  return (
    <p className="cd-seal cd-seal--verified" role="status">
      <strong className="cd-seal__mark">✓ {T.sealVerified}</strong>
      <span>
        {T.sealIntact(result.events)}
        {result.unsealed > 0 ? ` ${T.sealPending(result.unsealed)}` : ''}
      </span>
    </p>
  );
}
