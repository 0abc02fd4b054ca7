import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import { cache } from '../api/cache';
import { setIndexedDBFactory } from '../api/offlineCopy';

// jsdom has no IndexedDB: every test gets an empty in-memory one (the real IndexedDB API).
beforeEach(() => setIndexedDBFactory(new IDBFactory()));

afterEach(() => {
  cleanup();
  cache.clear();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
