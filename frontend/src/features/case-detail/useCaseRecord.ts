import { useEffect, useState } from 'react';
import type { Case } from '@alignerflow/domain';
import { ApiError } from '../../api/client';
import { cache, useCache } from '../../api/cache';
import { caseDetailApi } from './caseDetailApi';

export type CaseRecord =
  | { status: 'ready'; item: Case }
  | { status: 'loading' }
  | { status: 'notFound' }
  | { status: 'failed'; reason: string };

/**
 * The case from the one cache (kept fresh by the live stream). A case that is not in the list
 * yet (opened from a scan, say) is read once with `GET /cases/{id}` into the cache.
 */
export function useCaseRecord(caseId: string): CaseRecord {
  const item = useCache((state) => state.cases.find((candidate) => candidate.id === caseId));
  const [failure, setFailure] = useState<{ caseId: string; record: CaseRecord } | null>(null);
  const present = item !== undefined;

  useEffect(() => {
    if (present) return;
    let current = true;
    caseDetailApi.get(caseId).then(
      (loaded) => cache.upsertCase(loaded),
      (error: unknown) => {
        if (!current) return;
        const record: CaseRecord =
          error instanceof ApiError && error.status === 404
            ? { status: 'notFound' }
            : { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
        setFailure({ caseId, record });
      },
    );
    return () => {
      current = false;
    };
  }, [caseId, present]);

  if (item) return { status: 'ready', item };
  return failure?.caseId === caseId ? failure.record : { status: 'loading' };
}
