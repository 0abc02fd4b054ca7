/** How long an idle moment is waited for before the work runs anyway (ms). */
const IDLE_AT_LATEST_MS = 2_000;

/**
 * Runs `work` when the main thread is idle, after the frames in progress have been painted (a
 * plain task where the browser cannot tell, e.g. Safari and jsdom); returns a cancel.
 */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => work(), { timeout: IDLE_AT_LATEST_MS });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, 0);
  return () => clearTimeout(timer);
}
