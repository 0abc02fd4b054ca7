import type { Checkpoint } from '../event-store/event-store.js';

/** One server-sent event. JSON never contains a raw line break, so `data` is one line. */
export function messageFrame(id: string, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The same, with the data already serialised as JSON (a list PostgreSQL assembled). */
export function jsonMessageFrame(id: string, event: string, json: string): string {
  return `id: ${id}\nevent: ${event}\ndata: ${json}\n\n`;
}

/** Moves the browser's Last-Event-ID forward without dispatching an event. */
export function idFrame(id: string): string {
  return `id: ${id}\n\n`;
}

export function retryFrame(ms: number): string {
  return `retry: ${ms}\n\n`;
}

export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/** Commit-safe order of the log: by transaction id, then position (both bigint strings). */
export function compareKeys(a: Checkpoint | null, b: Checkpoint | null): number {
  if (!a || !b) return a === b ? 0 : a ? 1 : -1;
  return (
    compareBigintStrings(a.transactionId, b.transactionId) || compareBigintStrings(a.position, b.position)
  );
}

function compareBigintStrings(a: string, b: string): number {
  // Canonical decimal strings from PostgreSQL: longer is bigger, equal lengths compare as text.
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** Reads the client's Last-Event-ID: a position, or "0" for the start of the log. */
export function parseLastEventId(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed && /^\d{1,19}$/.test(trimmed) ? trimmed.replace(/^0+(?=\d)/, '') : undefined;
}
