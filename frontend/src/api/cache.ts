import { useSyncExternalStore } from 'react';
import {
  compareWorkQueue,
  isInWorkQueue,
  toCaseSummary,
  type Case,
  type CaseSummary,
  type User,
} from '@alignerflow/domain';
import type { DashboardFigures } from '@alignerflow/domain';
import { whenIdle } from './idle';
import { eraseOfflineCopy, readOfflineCopy, writeOfflineCopy, type OfflineCopy } from './offlineCopy';

export { readOfflineCopy, type OfflineCopy } from './offlineCopy';

/**
 * The one query cache of the app: cases, users and dashboard figures, fed by REST and patched by
 * the live stream. Components read it with `useCache(selector)`; nothing keeps its own copy.
 */
export interface CacheState {
  /** The signed-in user the data belongs to (kept with the offline copy). */
  owner: User | null;
  /** The list: summaries (GET /cases), each case's notes counted, not carried. */
  cases: CaseSummary[];
  /**
   * Whole cases (notes included) as GET /cases/{id} and command answers give them: the cases
   * opened lately, at most MAX_DETAILS, most recent last. A newer summary from the live stream
   * leaves its notes in place until the case is read again (useCaseRecord).
   */
  details: Record<string, Case>;
  users: User[] | null;
  dashboard: DashboardFigures | null;
  /**
   * My Queue as GET /work-queue answered it (null until read), then kept by the live stream with
   * the domain's queue rule: a changed case joins, moves or leaves as the server would decide.
   */
  workQueue: CaseSummary[] | null;
  casesEtag: string | null;
  usersEtag: string | null;
  /** When the data last matched the server (ISO). */
  syncedAt: string | null;
  /** The server could not be reached on the last attempt. */
  offline: boolean;
  /** When the session ends unless used again (GET /auth/me's expiresAt); kept with the offline copy. */
  sessionEndsAt: string | null;
  /** The live stream is open; while it is not, the list endpoints are polled. */
  streamConnected: boolean;
}

const EMPTY: CacheState = {
  owner: null,
  cases: [],
  details: {},
  users: null,
  dashboard: null,
  workQueue: null,
  casesEtag: null,
  usersEtag: null,
  syncedAt: null,
  offline: false,
  streamConnected: false,
  sessionEndsAt: null,
};

/**
 * The offline copy is written once the data has been quiet this long (ms), and at the latest this
 * long after the first change not yet kept; then in an idle moment, never in the way of a render.
 */
export const KEEP_QUIET_MS = 1_000;
const KEEP_AT_LATEST_MS = 5_000;
/** Whole cases kept (and in the offline copy): the cases a user opens in a session or two. */
export const MAX_DETAILS = 50;

type Listener = () => void;

const summaryOf = (item: CaseSummary | Case): CaseSummary => ('notes' in item ? toCaseSummary(item) : item);

const sameUser = (a: User, b: User) => a.username.toLowerCase() === b.username.toLowerCase();

/** The queue with `changed` in, moved or out, as the domain's queue rule decides for `owner`. */
function queueWith(queue: CaseSummary[], changed: CaseSummary, owner: User | null): CaseSummary[] {
  const others = queue.filter((item) => item.id !== changed.id);
  if (!owner || !isInWorkQueue(changed, owner)) return others.length === queue.length ? queue : others;
  return [...others, changed].sort(compareWorkQueue);
}

function createCache() {
  let state: CacheState = EMPTY;
  const listeners = new Set<Listener>();
  /** Moves on at every begin and clear, so a copy read for an earlier session is never applied. */
  let session = 0;
  /** When the oldest change not yet in the offline copy was made (ms), if there is one. */
  let unkeptSince: number | undefined;
  let keepTimer: ReturnType<typeof setTimeout> | undefined;
  let cancelIdle: (() => void) | undefined;

  function notify(): void {
    listeners.forEach((listener) => listener());
  }

  function cancelKeep(): void {
    clearTimeout(keepTimer);
    keepTimer = undefined;
    cancelIdle?.();
    cancelIdle = undefined;
    unkeptSince = undefined;
  }

  function keepNow(): void {
    cancelKeep();
    if (!state.owner) return;
    const copy: OfflineCopy = {
      owner: state.owner,
      cases: state.cases,
      details: state.details,
      users: state.users,
      dashboard: state.dashboard,
      syncedAt: state.syncedAt,
      expiresAt: state.sessionEndsAt,
    };
    writeOfflineCopy(copy).catch((error) =>
      console.warn('Could not keep an offline copy of the data', error),
    );
  }

  function keepSoon(): void {
    const now = Date.now();
    unkeptSince ??= now;
    clearTimeout(keepTimer);
    cancelIdle?.();
    cancelIdle = undefined;
    const wait = Math.max(0, Math.min(KEEP_QUIET_MS, unkeptSince + KEEP_AT_LATEST_MS - now));
    keepTimer = setTimeout(() => {
      keepTimer = undefined;
      cancelIdle = whenIdle(keepNow);
    }, wait);
  }

  /** A page being hidden or closed may not come back: what is not kept yet is written at once. */
  function keepBeforeLeaving(event: Event): void {
    if (unkeptSince !== undefined && (event.type === 'pagehide' || document.visibilityState === 'hidden'))
      keepNow();
  }
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', keepBeforeLeaving);
    document.addEventListener('visibilitychange', keepBeforeLeaving);
  }

  function set(patch: Partial<CacheState>, { keep = true } = {}): void {
    state = { ...state, ...patch };
    if (keep) keepSoon();
    notify();
  }

  /** Fills what the server has not sent yet in this session from the user's offline copy. */
  function fillFrom(copy: OfflineCopy | null): void {
    if (!copy || !state.owner || !sameUser(copy.owner, state.owner)) return;
    const patch: Partial<CacheState> = {};
    if (state.cases === EMPTY.cases) patch.cases = copy.cases.map(summaryOf);
    if (state.details === EMPTY.details) patch.details = copy.details ?? {};
    if (state.users === null) patch.users = copy.users;
    if (state.dashboard === null) patch.dashboard = copy.dashboard;
    if (state.syncedAt === null) patch.syncedAt = copy.syncedAt;
    set(patch, { keep: false });
  }

  return {
    get: () => state,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /**
     * Starts a session's cache. The offline copy is used only when it belongs to the same user, and
     * only for what the server has not sent by the time it is read; pass the copy when it has
     * been read already (`null`: there is none), otherwise it is read in the background.
     */
    begin(owner: User, copy?: OfflineCopy | null): void {
      const current = ++session;
      state = { ...EMPTY, owner };
      notify();
      if (copy !== undefined) fillFrom(copy);
      else
        void readOfflineCopy().then((stored) => {
          if (session === current) fillFrom(stored);
        });
    },
    /** Logout: forget the data and its offline copy (patient data must not outlive the session). */
    clear(): void {
      session++;
      cancelKeep();
      state = EMPTY;
      eraseOfflineCopy().catch((error) =>
        console.warn('Could not erase the offline copy of the data', error),
      );
      notify();
    },

    setOwner: (owner: User) => set({ owner }),
    /** The session's end as the server last said it; the offline copy is shown only until then. */
    setSessionEnd: (expiresAt: string | null) => set({ sessionEndsAt: expiresAt }),
    /** The list; whole cases (an offline copy kept before lists carried summaries) are summarised. */
    setCases: (cases: readonly (CaseSummary | Case)[], casesEtag: string | null = null) =>
      set({ cases: cases.map(summaryOf), casesEtag }),
    /** A whole case (a command's answer, GET /cases/{id}) or a summary (the live stream). */
    upsertCase(updated: Case | CaseSummary): void {
      const whole = 'notes' in updated ? updated : undefined;
      const summary = summaryOf(updated);
      const patch: Partial<CacheState> = {};
      const index = state.cases.findIndex((item) => item.id === updated.id);
      if (index < 0 || (state.cases[index].version ?? 0) <= (summary.version ?? 0)) {
        patch.cases = index >= 0 ? state.cases.with(index, summary) : [...state.cases, summary];
        patch.casesEtag = null;
        if (state.workQueue) {
          const queue = queueWith(state.workQueue, summary, state.owner);
          if (queue !== state.workQueue) patch.workQueue = queue;
        }
      }
      const known = state.details[updated.id];
      if (whole && (!known || (known.version ?? 0) <= (whole.version ?? 0))) {
        const { [whole.id]: _replaced, ...others } = state.details;
        const ids = Object.keys(others);
        const kept = ids.length >= MAX_DETAILS ? ids.slice(ids.length - MAX_DETAILS + 1) : ids;
        patch.details = { ...Object.fromEntries(kept.map((id) => [id, others[id]])), [whole.id]: whole };
      }
      if (Object.keys(patch).length) set(patch);
    },
    removeCase(id: string): void {
      if (!state.cases.some((item) => item.id === id) && !state.details[id]) return;
      const { [id]: _removed, ...details } = state.details;
      set({
        cases: state.cases.filter((item) => item.id !== id),
        details,
        casesEtag: null,
        workQueue: state.workQueue && state.workQueue.filter((item) => item.id !== id),
      });
    },
    setUsers: (users: User[], usersEtag: string | null = null) => set({ users, usersEtag }),
    setDashboard: (dashboard: DashboardFigures) => set({ dashboard }),
    setWorkQueue: (workQueue: CaseSummary[]) => set({ workQueue }, { keep: false }),
    markSynced: (at: Date = new Date()) => set({ syncedAt: at.toISOString(), offline: false }),
    setOffline: (offline: boolean) => {
      if (state.offline !== offline) set({ offline }, { keep: false });
    },
    setStreamConnected: (streamConnected: boolean) => {
      if (state.streamConnected !== streamConnected) set({ streamConnected }, { keep: false });
    },
  };
}

export const cache = createCache();

export function useCache<T>(selector: (state: CacheState) => T): T {
  return useSyncExternalStore(cache.subscribe, () => selector(cache.get()));
}
