import { withAdminClient } from './database';

/**
 * Readers of the event log only trust transactions older than every one still running on the
 * whole PostgreSQL server (pg_snapshot_xmin), so a long transaction of anyone else on a shared
 * test server (a rebuild, a benchmark) holds the live stream back until it ends. Describes such
 * a transaction, if one is running; waits are then extended rather than failed.
 */
export async function longTransactionOnServer(olderThanMs = 2_000): Promise<string | undefined> {
  const rows = await withAdminClient(async (client) => {
    const { rows } = await client.query<{ pid: number; datname: string; seconds: number }>(
      `SELECT pid, datname, extract(epoch FROM now() - xact_start)::int AS seconds FROM pg_stat_activity
        WHERE pid <> pg_backend_pid() AND xact_start < now() - $1 * interval '1 millisecond'
          AND backend_xid IS NOT NULL
        ORDER BY xact_start LIMIT 1`,
      [olderThanMs],
    );
    return rows;
  }).catch(() => []);
  return rows[0] && `pid ${rows[0].pid} in ${rows[0].datname}, running for ${rows[0].seconds} s`;
}

/** How long a wait may be extended while another transaction holds the server's readers back. */
const MAX_HELD_BACK_MS = 5 * 60_000;

/**
 * For a wait that started at `started` and ran out: the long transaction that holds the server's
 * readers back (the wait should then be extended), or undefined (it really failed).
 */
export async function heldBackSince(started: number): Promise<string | undefined> {
  return Date.now() - started < MAX_HELD_BACK_MS ? longTransactionOnServer() : undefined;
}

/** Polls `check` until it holds; past `timeoutMs` fails, unless a long transaction holds readers back. */
export async function eventually(
  check: () => boolean,
  description: string,
  timeoutMs = 10_000,
): Promise<void> {
  const started = Date.now();
  let deadline = started + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) {
      const holder = await heldBackSince(started);
      if (!holder) throw new Error(`Timed out after ${Date.now() - started} ms waiting for ${description}`);
      console.warn(`Still waiting for ${description}: a long transaction (${holder}) holds readers back.`);
      deadline = Date.now() + timeoutMs;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A test waiting on the live stream may outlast another run's long transaction. */
export const LIVE_TEST_TIMEOUT_MS = MAX_HELD_BACK_MS + 30_000;

/** A server-sent event as a browser's EventSource would dispatch it, with its data parsed. */
export interface SseMessage {
  /** The Last-Event-ID in force when it was dispatched. */
  id: string;
  event: string;
  data: any;
  receivedAt: number;
}

export interface SseOpenOptions {
  token?: string;
  lastEventId?: string;
  /** Sent as the `lastEventId` query parameter instead of the header. */
  lastEventIdQuery?: string;
  headers?: Record<string, string>;
}

/**
 * A minimal EventSource over fetch that keeps everything it received, parsed as the WHATWG
 * event-stream format says: `id:` sets the last event id (also without data), comments and
 * `retry:` are recorded, an event is dispatched at each blank line that ends some data.
 */
export class SseStream {
  readonly messages: SseMessage[] = [];
  readonly comments: { text: string; receivedAt: number }[] = [];
  readonly retries: number[] = [];
  lastEventId = '';
  /** Resolves when the server ends the stream or the connection breaks. */
  readonly ended: Promise<void>;
  endedBy: 'server' | 'error' | 'client' | undefined;

  private readonly listeners = new Set<() => void>();
  private buffer = '';
  private data: string[] = [];
  private eventType = '';
  private idBuffer = '';

  private constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {
    this.ended = this.pump();
  }

  static async open(url: string, options: SseOpenOptions = {}): Promise<SseStream> {
    const target = new URL(url);
    if (options.lastEventIdQuery !== undefined)
      target.searchParams.set('lastEventId', options.lastEventIdQuery);
    const controller = new AbortController();
    const response = await fetch(target, {
      headers: {
        accept: 'text/event-stream',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.lastEventId !== undefined ? { 'last-event-id': options.lastEventId } : {}),
        ...options.headers,
      },
      signal: controller.signal,
    });
    if (!response.ok || !response.body) {
      const text = await response.text().catch(() => '');
      throw new Error(`GET ${target} answered ${response.status}: ${text}`);
    }
    return new SseStream(response, controller);
  }

  /** Messages of one event type, optionally about one case. */
  of(event: string, caseId?: string): SseMessage[] {
    return this.messages.filter(
      (message) =>
        message.event === event &&
        (caseId === undefined || message.data?.id === caseId || message.data?.caseId === caseId),
    );
  }

  /** The first message (already received or still to come) that matches. */
  async waitFor(
    predicate: (message: SseMessage) => boolean,
    description = 'a matching message',
    timeoutMs = 10_000,
  ): Promise<SseMessage> {
    let found: SseMessage | undefined;
    await this.until(() => (found = this.messages.find(predicate)) !== undefined, description, timeoutMs);
    return found!;
  }

  waitForEvent(event: string, caseId?: string, timeoutMs?: number): Promise<SseMessage> {
    return this.waitFor(
      (message) =>
        message.event === event &&
        (caseId === undefined || message.data?.id === caseId || message.data?.caseId === caseId),
      `${event}${caseId ? ` about ${caseId}` : ''}`,
      timeoutMs,
    );
  }

  /**
   * Waits until `check` holds, re-checking at every received line block. Past `timeoutMs` it
   * fails, unless a long transaction elsewhere on the server is what holds the stream back.
   */
  async until(check: () => boolean, description: string, timeoutMs = 10_000): Promise<void> {
    if (check()) return;
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout;
      const listener = () => {
        if (!check()) return;
        cleanup();
        resolve();
      };
      const expire = async () => {
        const holder = await heldBackSince(started);
        if (!this.listeners.has(listener)) return;
        if (holder) {
          console.warn(
            `Still waiting for ${description}: a long transaction (${holder}) holds readers back.`,
          );
          timer = setTimeout(() => void expire(), timeoutMs);
          return;
        }
        cleanup();
        reject(
          new Error(
            `Timed out after ${Date.now() - started} ms waiting for ${description}; received: ${JSON.stringify(
              this.messages.map((m) => [m.id, m.event, m.data?.id ?? m.data?.caseId ?? '']),
            )}`,
          ),
        );
      };
      timer = setTimeout(() => void expire(), timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      this.listeners.add(listener);
    });
  }

  close(): void {
    this.endedBy ??= 'client';
    this.controller.abort();
  }

  private async pump(): Promise<void> {
    const reader = this.response.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.feed(decoder.decode(value, { stream: true }));
      }
      this.endedBy ??= 'server';
    } catch {
      this.endedBy ??= 'error';
    }
    this.notify();
  }

  private feed(text: string): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      this.line(line);
    }
    this.notify();
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) {
      this.comments.push({ text: line.slice(1).trim(), receivedAt: Date.now() });
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventType = value;
    else if (field === 'id' && !value.includes('\0')) this.idBuffer = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retries.push(Number(value));
  }

  private dispatch(): void {
    this.lastEventId = this.idBuffer;
    const data = this.data.join('\n');
    const hadData = this.data.length > 0;
    const event = this.eventType || 'message';
    this.data = [];
    this.eventType = '';
    if (!hadData) return;
    let parsed: unknown = data;
    try {
      parsed = JSON.parse(data);
    } catch {
      // Not JSON: keep the text.
    }
    this.messages.push({ id: this.lastEventId, event, data: parsed, receivedAt: Date.now() });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
