import { useState } from 'react';
import type { CaseSummary } from '@alignerflow/domain';
import { api } from '../../api/client';
import { cache } from '../../api/cache';
import { loadDashboard } from '../../api/queries';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import { toast } from '../../components/toastStore';
import { DASHBOARD_TEXTS } from './texts';

/** Manager row actions: hold or resume, and delete after the spec's confirmation. */
export function useCaseActions() {
  const [busyId, setBusyId] = useState<string | null>(null);

  async function run(id: string, action: () => Promise<void>): Promise<void> {
    setBusyId(id);
    try {
      await action();
      // The tiles follow our own change at once, not only when the live stream reports it.
      void loadDashboard().catch((error) => console.warn('Dashboard refresh failed', error));
    } catch (error) {
      toast(DASHBOARD_TEXTS.actionFailed, error instanceof Error ? error.message : String(error), 'error');
    } finally {
      setBusyId(null);
    }
  }

  const toggleHold = (item: CaseSummary) =>
    run(item.id, async () => {
      cache.upsertCase(item.onHold ? await caseDetailApi.resume(item) : await caseDetailApi.hold(item));
    });

  const remove = (item: CaseSummary) => {
    if (!window.confirm(DASHBOARD_TEXTS.confirmDelete)) return Promise.resolve();
    return run(item.id, async () => {
      await api.deleteCase(item.id);
      cache.removeCase(item.id);
    });
  };

  return { busyId, toggleHold, remove };
}
