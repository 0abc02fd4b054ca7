import { useCallback, useState } from 'react';
import type { Case } from '@alignerflow/domain';
import { ApiError } from '../../api/client';
import { cache } from '../../api/cache';
import { toast } from '../../components/toastStore';
import { caseDetailApi } from './caseDetailApi';
import { CASE_ACTION_TEXTS } from './texts';
import { errorMessage } from '../../api/errorMessage';

/** Reads the case again into the cache (after a 409 the user must see what changed). */
export async function refreshCase(caseId: string): Promise<void> {
  try {
    cache.upsertCase(await caseDetailApi.get(caseId));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) cache.removeCase(caseId);
  }
}

/**
 * Runs the case's commands: the answer (the updated Case) goes into the one cache; a failure
 * keeps the server's text under the action's key, to be shown next to that action; a 409 (the
 * case moved on, or a rule forbids it now) also reloads the case.
 */
export function useCaseCommand(caseId: string) {
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const clearError = useCallback((key: string) => {
    setErrors((current) => {
      if (!(key in current)) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });
  }, []);

  const run = useCallback(
    async (key: string, command: () => Promise<Case>): Promise<boolean> => {
      setBusy(key);
      clearError(key);
      try {
        cache.upsertCase(await command());
        return true;
      } catch (error) {
        const message = errorMessage(error);
        setErrors((current) => ({ ...current, [key]: message }));
        if (error instanceof ApiError && error.status === 409) {
          // The refreshed case may no longer show the panel the action was in: say it there too.
          toast(CASE_ACTION_TEXTS.actionFailed, message, 'error');
          await refreshCase(caseId);
        }
        return false;
      } finally {
        setBusy(null);
      }
    },
    [caseId, clearError],
  );

  return { busy, errors, run, clearError };
}

export type CaseCommandRunner = ReturnType<typeof useCaseCommand>;
