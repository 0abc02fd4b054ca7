import { useEffect, useRef } from 'react';
import { can, type CaseSummary, type LiveAlert, type User } from '@alignerflow/domain';
import { API_BASE, ApiError } from '../../api/client';
import { cache } from '../../api/cache';
import { loadAll, loadCases, loadDashboard, loadUsers, loadWorkQueue } from '../../api/queries';
import { toast } from '../../components/toastStore';
import { foregroundAlert, type AlertKind } from './alerts';
import { LIVE_TEXTS, POLL_MS, STREAM_RETRY_MS } from './texts';

function parse<T>(event: MessageEvent): T | undefined {
  try {
    return JSON.parse(event.data as string) as T;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the query cache live: the SSE stream patches it; while the stream is down the case and
 * user lists are polled every second with ETags (a 304 costs nothing).
 */
export function useLiveSync(user: User, onSessionEnded: () => void): void {
  const userRef = useRef(user);
  userRef.current = user;
  const endedRef = useRef(onSessionEnded);
  endedRef.current = onSessionEnded;
  const { username, role } = user;

  useEffect(() => {
    let stopped = false;
    let source: EventSource | null = null;
    let pollTimer: ReturnType<typeof setInterval> | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let dashboardTimer: ReturnType<typeof setTimeout> | undefined;
    let polling = false;
    const staff = can(role, 'viewDashboard');

    const sessionEnded = (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) {
        endedRef.current();
        return true;
      }
      return false;
    };

    const refreshDashboardSoon = () => {
      if (!staff || dashboardTimer !== undefined) return;
      dashboardTimer = setTimeout(() => {
        dashboardTimer = undefined;
        loadDashboard().catch(
          (error) => sessionEnded(error) || console.warn('Dashboard refresh failed', error),
        );
      }, 300);
    };

    // A whole-list change (a restore, a refresh while the stream was down) reads My Queue again;
    // single case changes are applied to it by the cache itself.
    const refreshQueue = () => {
      if (!can(role, 'viewWorkQueue')) return;
      loadWorkQueue().catch((error) => sessionEnded(error) || console.warn('Queue refresh failed', error));
    };

    const poll = async () => {
      if (polling || stopped) return;
      polling = true;
      const before = cache.get().cases;
      try {
        await Promise.all([loadCases(), can(role, 'listUsers') ? loadUsers() : Promise.resolve(true)]);
        if (cache.get().cases !== before) {
          refreshDashboardSoon();
          refreshQueue();
        }
      } catch (error) {
        if (!sessionEnded(error)) console.warn('Refresh failed', error);
      } finally {
        polling = false;
      }
    };

    const startPolling = () => {
      if (pollTimer === undefined && !stopped) pollTimer = setInterval(() => void poll(), POLL_MS);
    };
    const stopPolling = () => {
      clearInterval(pollTimer);
      pollTimer = undefined;
    };

    const connect = () => {
      if (stopped) return;
      if (typeof EventSource === 'undefined') {
        startPolling();
        return;
      }
      source = new EventSource(`${API_BASE}/events`, { withCredentials: true });
      source.onopen = () => {
        cache.setStreamConnected(true);
        stopPolling();
        // Catch up on whatever changed while the stream was closed (cheap with ETags).
        loadAll(role).catch((error) => sessionEnded(error) || console.warn('Refresh failed', error));
      };
      source.onerror = () => {
        cache.setStreamConnected(false);
        startPolling();
        if (source?.readyState === EventSource.CLOSED) {
          source = null;
          retryTimer = setTimeout(connect, STREAM_RETRY_MS);
        }
      };
      const onCase = (event: MessageEvent) => {
        const changed = parse<CaseSummary>(event);
        if (changed?.id) {
          cache.upsertCase(changed);
          cache.markSynced();
          refreshDashboardSoon();
        }
      };
      source.addEventListener('case_created', onCase);
      source.addEventListener('case_updated', onCase);
      source.addEventListener('case_deleted', (event) => {
        const deleted = parse<{ id: string }>(event);
        if (deleted?.id) {
          cache.removeCase(deleted.id);
          cache.markSynced();
          refreshDashboardSoon();
        }
      });
      source.addEventListener('cases_refresh', (event) => {
        const cases = parse<CaseSummary[]>(event);
        if (Array.isArray(cases)) {
          cache.setCases(cases);
          cache.markSynced();
        } else {
          void loadCases();
        }
        refreshDashboardSoon();
        refreshQueue();
      });
      source.addEventListener('users_refresh', (event) => {
        const users = parse<User[]>(event);
        if (Array.isArray(users)) {
          cache.setUsers(users);
          cache.markSynced();
        } else if (can(role, 'listUsers')) {
          void loadUsers();
        }
      });
      const onAlert = (kind: AlertKind) => (event: MessageEvent) => {
        const message = parse<Partial<LiveAlert>>(event) ?? {};
        // The server sends an alert only to its audience (the domain's isInAudience); whether it
        // also sounds is the domain's alertSoundsFor.
        foregroundAlert(kind, userRef.current, message);
        toast(
          message.title || LIVE_TEXTS.notificationTitle,
          message.body || LIVE_TEXTS.notificationBody,
          'info',
        );
      };
      source.addEventListener('manager_alert', onAlert('manager_alert'));
      source.addEventListener('doctor_alert', onAlert('doctor_alert'));
    };

    connect();

    return () => {
      stopped = true;
      stopPolling();
      clearTimeout(retryTimer);
      clearTimeout(dashboardTimer);
      source?.close();
      cache.setStreamConnected(false);
    };
  }, [username, role]);
}
