import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { cache } from '../api/cache';

afterEach(() => {
  cleanup();
  cache.clear();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
