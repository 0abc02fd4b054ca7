import { useEffect, useState } from 'react';
import type { CaseVerification } from '@alignerflow/domain';
import { request } from '../../api/client';

export type VerificationState =
  { status: 'checking' } | { status: 'done'; result: CaseVerification } | { status: 'failed' };

/** How long to wait before looking again while the newest events are still being sealed. */
const RECHECK_MS = 2500;
const MAX_RECHECKS = 4;

export const verifyCase = (caseId: string) =>
  request<CaseVerification>('GET', `/audit/verify?caseId=${encodeURIComponent(caseId)}`);

/**
 * The case's seal check, read again when the case's version moves on; while its newest events
 * are not sealed yet it looks again a few times (the server seals within seconds).
 */
export function useCaseVerification(caseId: string, version: number, enabled: boolean): VerificationState {
  const [state, setState] = useState<VerificationState>({ status: 'checking' });

  useEffect(() => {
    if (!enabled) return;
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = (rechecks: number) =>
      verifyCase(caseId).then(
        (result) => {
          if (!current) return;
          setState({ status: 'done', result });
          if (result.ok && result.unsealed > 0 && rechecks < MAX_RECHECKS)
            timer = setTimeout(() => check(rechecks + 1), RECHECK_MS);
        },
        () => current && setState({ status: 'failed' }),
      );
    void check(0);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [caseId, version, enabled]);

  return state;
}
