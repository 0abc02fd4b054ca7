import { Injectable, Logger, Optional, type OnModuleDestroy } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Client, type ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import type { RecordedEvent } from './event-types.js';

/** Where every statement that appends is announced at its commit (migrations/018). */
export const EVENTS_APPENDED_CHANNEL = 'events_appended';

/** The in-process signal of this process's own commits, emitted before their HTTP answer. */
export const EVENTS_COMMITTED = 'events.committed';
export interface EventsCommitted {
  events: RecordedEvent[];
}

/** What a reader of the log is told. */
export interface LogSubscriber {
  /**
   * Events were committed: by any process, this one included (NOTIFY), or by this one while the
   * LISTEN connection is down (EVENTS_COMMITTED). Called once per batch of announcements, on a
   * later turn of the event loop than the commits' own.
   */
  appended(): void;
  /** The LISTEN connection is up (after a start or a reconnect): anything appended while it was down is unread. */
  connected?(): void;
  /** The LISTEN connection is down: until `connected`, only this process's commits are announced. */
  lost?(): void;
  /**
   * This process committed (EVENTS_COMMITTED), whether or not the connection is up: called on the
   * committing turn, before the commit's HTTP answer. For readers that promise a caller its own
   * writes on its next read (the list caches); the NOTIFY of the same commit can arrive after it.
   */
  committedHere?(): void;
}

const APPLICATION_NAME = 'alignerflow-log-listener';
const FIRST_RECONNECT_DELAY_MS = 250;
const MAX_RECONNECT_DELAY_MS = 10_000;

/**
 * The process's one LISTEN connection on the event log, shared by every reader that wants to be
 * woken (the live tailer, the case list cache, the notification dispatcher, the audit sealer).
 * It connects when the first subscriber comes, reconnects with backoff when the connection is
 * lost, and tells subscribers so: a lost notification must only delay a reader, never make it
 * skip, so each reader also reads on `connected`.
 *
 * One wake per batch of commits. Every statement that appends NOTIFYs at its commit, this
 * process's own included, so while the connection is up the NOTIFY alone wakes subscribers and
 * the in-process EVENTS_COMMITTED only calls `committedHere`: honouring both would wake every
 * subscriber twice per commit. (Filtering the echo by the notifying backend's pid instead would need the pids of
 * every pooled connection, and would lose the appends that emit nothing in-process, such as
 * materials or backup.) While the connection is down, EVENTS_COMMITTED stands in for this
 * process's commits. Announcements that arrive together (one socket read carries many) wake
 * subscribers once, on a later turn than the commit's own, so a flush's callers are answered
 * before any follower runs.
 */
@Injectable()
export class LogListener implements OnModuleDestroy {
  private readonly logger = new Logger('LogListener');
  private readonly subscribers = new Set<LogSubscriber>();
  private client: Client | undefined;
  private backendPid: number | undefined;
  private connecting: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelayMs = FIRST_RECONNECT_DELAY_MS;
  private stopped = false;
  private wakeScheduled: NodeJS.Immediate | undefined;
  private readonly onAppended = () => {
    this.wakeScheduled ??= setImmediate(() => {
      this.wakeScheduled = undefined;
      for (const subscriber of this.subscribers) subscriber.appended();
    });
  };
  private readonly onCommitted = () => {
    for (const subscriber of this.subscribers) subscriber.committedHere?.();
    if (!this.client) this.onAppended();
  };

  constructor(
    private readonly dataSource: DataSource,
    @Optional() private readonly emitter?: EventEmitter2,
  ) {}

  /** Whether notifications from other processes arrive now. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** The server process id of the LISTEN connection while it is up. */
  get pid(): number | undefined {
    return this.client ? this.backendPid : undefined;
  }

  /** Starts listening if nobody did yet; resolves once the (first) attempt to connect has ended. */
  subscribe(subscriber: LogSubscriber): { ready: Promise<void>; unsubscribe: () => void } {
    if (!this.subscribers.size) this.emitter?.on(EVENTS_COMMITTED, this.onCommitted);
    this.subscribers.add(subscriber);
    return { ready: this.ready(), unsubscribe: () => this.unsubscribe(subscriber) };
  }

  /** Resolves when listening, or once the current attempt to connect has failed. */
  ready(): Promise<void> {
    if (this.client || this.stopped) return Promise.resolve();
    return (this.connecting ??= this.connect().finally(() => (this.connecting = undefined)));
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.emitter?.off(EVENTS_COMMITTED, this.onCommitted);
    clearImmediate(this.wakeScheduled);
    clearTimeout(this.reconnectTimer);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private unsubscribe(subscriber: LogSubscriber): void {
    this.subscribers.delete(subscriber);
    if (!this.subscribers.size) this.emitter?.off(EVENTS_COMMITTED, this.onCommitted);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ ...connectionConfig(this.dataSource), application_name: APPLICATION_NAME });
    let failed = false;
    const lost = (reason: string) => {
      if (failed) return;
      failed = true;
      const wasListening = this.client === client;
      if (wasListening) this.client = undefined;
      client.end().catch(() => undefined);
      if (wasListening) for (const subscriber of this.subscribers) subscriber.lost?.();
      if (this.stopped) return;
      this.logger.warn(`LISTEN connection lost (${reason}); reconnecting in ${this.reconnectDelayMs} ms`);
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = setTimeout(() => void this.ready(), this.reconnectDelayMs);
      this.reconnectTimer.unref();
      this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, MAX_RECONNECT_DELAY_MS);
    };
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('ended'));
    client.on('notification', this.onAppended);
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_APPENDED_CHANNEL}`);
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      this.backendPid = rows[0].pid;
    } catch (error) {
      lost((error as Error).message);
      return;
    }
    if (failed) return;
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.reconnectDelayMs = FIRST_RECONNECT_DELAY_MS;
    for (const subscriber of this.subscribers) subscriber.connected?.();
  }
}

/** The same server and credentials as the application's own pool. */
export function connectionConfig(dataSource: DataSource): ClientConfig {
  const options = dataSource.options as {
    url?: string;
    host?: string;
    port?: number;
    username?: string;
    password?: unknown;
    database?: string;
    ssl?: unknown;
  };
  return {
    connectionString: options.url,
    host: options.host,
    port: options.port,
    user: options.username,
    password: typeof options.password === 'string' ? options.password : undefined,
    database: options.database,
    ssl: options.ssl as ClientConfig['ssl'],
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
  };
}
