import { useCallback, useEffect, useState } from 'react';
import type { CaseHistoryEntry } from '@alignerflow/domain';
import { caseDetailApi } from '../case-shared/caseDetailApi';

export type HistoryState =
  | { status: 'loading' }
  | { status: 'ready'; entries: CaseHistoryEntry[] }
  | { status: 'failed'; reason: string };

/** `GET /cases/{id}/history`, read again whenever the case's version moves on. */
export function useCaseHistory(caseId: string, version: number) {
  const [state, setState] = useState<HistoryState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    caseDetailApi.history(caseId).then(
      (entries) => current && setState({ status: 'ready', entries }),
      (error: unknown) =>
        current &&
        setState({ status: 'failed', reason: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [caseId, version, attempt]);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  return { state, retry };
}
