import { useCallback, useEffect, useState } from 'react';
import { ACCESS_LOG_TEXTS as T, type Case, type CaseAccessEntry } from '@alignerflow/domain';
import { AccessEntries } from './AccessEntries';
import { accessLogApi } from './accessLogApi';

type State =
  | { status: 'loading' }
  | { status: 'ready'; entries: CaseAccessEntry[] }
  | { status: 'failed'; reason: string };

/** 'Access' (Managers): who read this case, when, what and from where. */
export function CaseAccessTab({ item }: { item: Case }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    accessLogApi.ofCase(item.id).then(
      (entries) => current && setState({ status: 'ready', entries }),
      (error: unknown) =>
        current &&
        setState({ status: 'failed', reason: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [item.id, attempt]);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  return (
    <div className="cd-tab">
      <h3 className="cd-tab__heading">{T.caseHeading}</h3>
      {state.status === 'loading' ? (
        <p className="muted" role="status">
          {T.loading}
        </p>
      ) : state.status === 'failed' ? (
        <div role="alert">
          <p className="form-error">{T.failed}</p>
          <p className="small">{state.reason}</p>
          <button type="button" className="button button--small button--secondary" onClick={retry}>
            {T.retry}
          </button>
        </div>
      ) : state.entries.length === 0 ? (
        <p className="muted">{T.empty}</p>
      ) : (
        <AccessEntries entries={state.entries} />
      )}
    </div>
  );
}
