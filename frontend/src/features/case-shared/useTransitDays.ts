import { useEffect, useSyncExternalStore } from 'react';
import { materialsApi } from '../../api/materialsApi';

// The lab's transit days, read once per session (Managers change them rarely; saving updates it).
let known: number | null = null;
let loading = false;
const listeners = new Set<() => void>();

export function setTransitDays(days: number): void {
  known = days;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The lab's transit days (0 until known), for the ship-by dates the queue and the dashboard's
 * at-risk list show. `enabled`: only lab staff may read the materials settings.
 */
export function useTransitDays(enabled: boolean): number {
  const days = useSyncExternalStore(subscribe, () => known ?? 0);
  useEffect(() => {
    if (!enabled || known !== null || loading) return;
    loading = true;
    materialsApi
      .settings()
      .then((settings) => setTransitDays(settings.transitDays))
      .catch(() => undefined)
      .finally(() => {
        loading = false;
      });
  }, [enabled]);
  return days;
}
