import { useMemo, useState } from 'react';
import type { Case } from '@alignerflow/domain';
import { formatDateTime } from './formatTime';
import { historyLines } from './historyText';
import { CASE_DETAIL_TEXTS as T } from './texts';
import { useCaseHistory } from './useCaseHistory';

/** 'History': the case's audit trail — who did what, when, and what changed. */
export function HistoryTab({ item }: { item: Case }) {
  const { state, retry } = useCaseHistory(item.id, item.version);
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
                    <div key={detail.label}>
                      <dt>{detail.label}</dt>
                      <dd className="cd-prewrap">{detail.value}</dd>
                    </div>
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
