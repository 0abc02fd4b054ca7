import { useEffect, useState } from 'react';
import type { Case } from '@alignerflow/domain';
import { ApiError } from '../../api/client';
import { cache, useCache } from '../../api/cache';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import { withNotesOf } from './latest';

export type CaseRecord =
  | { status: 'ready'; item: Case }
  | { status: 'loading' }
  | { status: 'notFound' }
  | { status: 'failed'; reason: string };

/**
 * The whole case, notes included. The list and the live stream carry summaries only, so an opened
 * case is read with `GET /cases/{id}` into the cache, and read again when a newer summary arrives
 * (a new note, say); meanwhile the newer summary shows with the notes already read, so an open
 * case never loses its notes. Offline, the whole case kept in the offline copy shows.
 */
export function useCaseRecord(caseId: string): CaseRecord {
  const summary = useCache((state) => state.cases.find((candidate) => candidate.id === caseId));
  const whole = useCache((state) => state.details[caseId]);
  const [failure, setFailure] = useState<{ caseId: string; record: CaseRecord } | null>(null);
  const wanted = whole === undefined || (summary !== undefined && summary.version > whole.version);
  const wantedVersion = summary?.version ?? 0;

  useEffect(() => {
    if (!wanted) return;
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
  }, [caseId, wanted, wantedVersion]);

  if (whole) return { status: 'ready', item: wanted && summary ? withNotesOf(summary, whole) : whole };
  return failure?.caseId === caseId ? failure.record : { status: 'loading' };
}
