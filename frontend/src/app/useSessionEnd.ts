import { useEffect } from 'react';
import { api, ApiError } from '../api/client';
import { cache } from '../api/cache';
import { isCopyStillValid } from '../api/offlineCopy';

/** How often the session's end is checked, and how often it is asked again while online. */
export const SESSION_CHECK_MS = 60_000;
export const SESSION_REFRESH_MS = 5 * 60_000;

/**
 * Keeps the session's end known while signed in (each use of the API moves it on, so it is asked
 * again now and then), and ends the signed-in screen once it has passed: offline, the kept copy
 * may not be shown past the session it was saved under (api.md, "Patient data"). A stale end is
 * only ever earlier than the real one, so the copy never outlives the session.
 */
export function useSessionEnd(active: boolean, onEnded: () => void): void {
  useEffect(() => {
    if (!active) return;
    let askedAt = Date.now();
    let asking = false;
    const check = () => {
      const { sessionEndsAt } = cache.get();
      const passed = !isCopyStillValid({ expiresAt: sessionEndsAt });
      if (asking || (!passed && Date.now() - askedAt < SESSION_REFRESH_MS)) return;
      asking = true;
      askedAt = Date.now();
      api
        .me()
        .then(({ expiresAt }) => cache.setSessionEnd(expiresAt))
        .catch((error: unknown) => {
          // Signed out on the server, or unreachable with the session's time up: both end it here.
          if ((error instanceof ApiError && error.status === 401) || passed) onEnded();
        })
        .finally(() => (asking = false));
    };
    const timer = setInterval(check, SESSION_CHECK_MS);
    return () => clearInterval(timer);
  }, [active, onEnded]);
}
