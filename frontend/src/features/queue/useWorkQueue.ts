import { useCallback, useEffect, useState } from 'react';
import { workQueueOf, type CaseSummary, type User } from '@alignerflow/domain';
import { useCache } from '../../api/cache';
import { loadWorkQueue } from '../../api/queries';
import { errorMessage } from '../../api/errorMessage';

export type WorkQueueState =
  | { status: 'loading' }
  | { status: 'error'; message: string; retry: () => void }
  | { status: 'ready'; cases: CaseSummary[] };

/**
 * My Queue from the one cache: read with GET /work-queue when the screen opens, then kept live
 * by the stream (the cache applies each changed case with the domain's queue rule). Offline,
 * before the queue was ever read, the same rule picks it from the last synced case list.
 */
export function useWorkQueue(user: User): WorkQueueState {
  const queue = useCache((state) => state.workQueue);
  const offline = useCache((state) => state.offline);
  const cases = useCache((state) => state.cases);
  const [failure, setFailure] = useState<string | null>(null);

  const load = useCallback(() => {
    setFailure(null);
    loadWorkQueue().catch((error: unknown) => setFailure(errorMessage(error)));
  }, []);

  useEffect(load, [load]);

  if (queue) return { status: 'ready', cases: queue };
  if (offline && cases.length) return { status: 'ready', cases: workQueueOf(cases, user) };
  if (failure) return { status: 'error', message: failure, retry: load };
  return { status: 'loading' };
}
