import { useSyncExternalStore } from 'react';
import type { Case, User } from '@alignerflow/domain';
import type { DashboardFigures } from './client';

/**
 * The one query cache of the app: cases, users and dashboard figures, fed by REST and patched by
 * the live stream. Components read it with `useCache(selector)`; nothing keeps its own copy.
 */
export interface CacheState {
  /** The signed-in user the data belongs to (kept with the offline copy). */
  owner: User | null;
  cases: Case[];
  users: User[] | null;
  dashboard: DashboardFigures | null;
  casesEtag: string | null;
  usersEtag: string | null;
  /** When the data last matched the server (ISO). */
  syncedAt: string | null;
  /** The server could not be reached on the last attempt. */
  offline: boolean;
  /** The live stream is open; while it is not, the list endpoints are polled. */
  streamConnected: boolean;
}

const EMPTY: CacheState = {
  owner: null,
  cases: [],
  users: null,
  dashboard: null,
  casesEtag: null,
  usersEtag: null,
  syncedAt: null,
  offline: false,
  streamConnected: false,
};

export const OFFLINE_COPY_KEY = 'alignerflow.offlineCopy';

interface OfflineCopy {
  owner: User;
  cases: Case[];
  users: User[] | null;
  dashboard: DashboardFigures | null;
  syncedAt: string | null;
}

type Listener = () => void;

function createCache() {
  let state: CacheState = EMPTY;
  const listeners = new Set<Listener>();
  let persistTimer: ReturnType<typeof setTimeout> | undefined;

  function persist(): void {
    persistTimer = undefined;
    if (!state.owner) return;
    const copy: OfflineCopy = {
      owner: state.owner,
      cases: state.cases,
      users: state.users,
      dashboard: state.dashboard,
      syncedAt: state.syncedAt,
    };
    try {
      localStorage.setItem(OFFLINE_COPY_KEY, JSON.stringify(copy));
    } catch (error) {
      console.warn('Could not keep an offline copy of the data', error);
    }
  }

  function set(patch: Partial<CacheState>, { keep = true } = {}): void {
    state = { ...state, ...patch };
    if (keep && persistTimer === undefined) persistTimer = setTimeout(persist, 250);
    listeners.forEach((listener) => listener());
  }

  return {
    get: () => state,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Starts a session's cache; the offline copy is used only when it belongs to the same user. */
    begin(owner: User): void {
      const copy = readOfflineCopy();
      const same = copy && copy.owner.username.toLowerCase() === owner.username.toLowerCase();
      state = same
        ? {
            ...EMPTY,
            owner,
            cases: copy.cases,
            users: copy.users,
            dashboard: copy.dashboard,
            syncedAt: copy.syncedAt,
          }
        : { ...EMPTY, owner };
      listeners.forEach((listener) => listener());
    },
    /** Logout: forget the data and its offline copy (patient data must not outlive the session). */
    clear(): void {
      clearTimeout(persistTimer);
      persistTimer = undefined;
      state = EMPTY;
      localStorage.removeItem(OFFLINE_COPY_KEY);
      listeners.forEach((listener) => listener());
    },

    setOwner: (owner: User) => set({ owner }),
    setCases: (cases: Case[], casesEtag: string | null = null) => set({ cases, casesEtag }),
    upsertCase(updated: Case): void {
      const index = state.cases.findIndex((item) => item.id === updated.id);
      if (index >= 0 && (state.cases[index].version ?? 0) > (updated.version ?? 0)) return;
      const cases = index >= 0 ? state.cases.with(index, updated) : [...state.cases, updated];
      set({ cases, casesEtag: null });
    },
    removeCase(id: string): void {
      if (!state.cases.some((item) => item.id === id)) return;
      set({ cases: state.cases.filter((item) => item.id !== id), casesEtag: null });
    },
    setUsers: (users: User[], usersEtag: string | null = null) => set({ users, usersEtag }),
    setDashboard: (dashboard: DashboardFigures) => set({ dashboard }),
    markSynced: (at: Date = new Date()) => set({ syncedAt: at.toISOString(), offline: false }),
    setOffline: (offline: boolean) => {
      if (state.offline !== offline) set({ offline }, { keep: false });
    },
    setStreamConnected: (streamConnected: boolean) => {
      if (state.streamConnected !== streamConnected) set({ streamConnected }, { keep: false });
    },
  };
}

export function readOfflineCopy(): OfflineCopy | null {
  try {
    const text = localStorage.getItem(OFFLINE_COPY_KEY);
    if (!text) return null;
    const copy = JSON.parse(text) as OfflineCopy;
    return copy && copy.owner && Array.isArray(copy.cases) ? copy : null;
  } catch {
    return null;
  }
}

export const cache = createCache();

export function useCache<T>(selector: (state: CacheState) => T): T {
  return useSyncExternalStore(cache.subscribe, () => selector(cache.get()));
}
