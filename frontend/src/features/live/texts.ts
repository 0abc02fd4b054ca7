/** Texts of live updates and offline mode. */
export const LIVE_TEXTS = {
  offline: (time: string) => `Offline — showing data from ${time}`,
  offlineNever: 'Offline — no data has been synced on this device yet',
  reconnecting: 'Live updates paused — refreshing every second',
  // A live notification that came without its own title or body.
  notificationTitle: 'AlignerFlow',
  notificationBody: 'You have a new update',
} as const;

/** Polling interval while the event stream is down (spec section 9). */
export const POLL_MS = 1000;
/** Reopen a stream the server closed (EventSource only retries on network errors). */
export const STREAM_RETRY_MS = 5000;
