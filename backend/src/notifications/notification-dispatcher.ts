import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadCheckpoint, saveCheckpoint } from '../event-store/checkpoints.js';
import { EventStore, type RecordedEvent } from '../event-store/event-store.js';
import { LogListener } from '../event-store/log-listener.js';
import { NotificationPlanner } from './notification-planner.js';
import { NotificationStore, type UserDeletion } from './notification-store.js';
import { NOTIFICATION_QUEUE, withTimeout, type NotificationQueue } from './queue/notification-queue.js';

export const DISPATCHER_CHECKPOINT = 'notifications';
/** Arbitrary but fixed: every process of one database contends for the same lock. */
const DISPATCHER_LOCK_ID = '7240913350164081004';
const BATCH = 200;
const IDLE_POLL_MS = 500;
const FOLLOWER_POLL_MS = 2000;
const ENQUEUE_TIMEOUT_MS = 5000;
const SWEEP_EVERY_MS = 60_000;
const STALE_AFTER_MS = 120_000;

export interface DispatcherOptions {
  /** Overrides for tests. */
  idlePollMs?: number;
  followerPollMs?: number;
}

/**
 * A checkpointed subscription on the event log that turns events into queued notification jobs.
 *
 * - Reads with EventStore.readAll (commit-safe order) from its checkpoint 'notifications', in batches.
 * - The checkpoint moves only after the batch's jobs are in the queue, in one transaction with
 *   their 'queued' rows. If the queue (Redis) is down, the batch is tried again later with
 *   backoff: nothing is lost, and since commands never wait for this loop, they keep working.
 * - Enqueueing a batch twice (a crash between enqueue and checkpoint) is harmless: job ids derive
 *   from the event, and the queue and the workers ignore an id they have seen.
 * - One dispatcher at a time per database advances the checkpoint: the one holding a session-level
 *   advisory lock on its own connection (which also makes the checkpoint write, so a process
 *   that lost its connection, and with it the lock, cannot write a stale checkpoint). Others wait
 *   and take over when the leader's session ends.
 * - As the leader, it also queues again jobs recorded as queued that no queue seems to hold any
 *   more (a Redis that lost its data, or the in-process queue of a process that stopped).
 * - A user's deletion (UserDeleted) removes the devices that user registered, before anything
 *   of the batch is queued; a batch done again removes nothing more.
 */
@Injectable()
export class NotificationDispatcher {
  private readonly logger = new Logger('NotificationDispatcher');
  private client?: Client;
  private leading = false;
  private loop?: Promise<void>;
  private stopping = false;
  private pendingWake = false;
  private wakeUp?: () => void;
  private unsubscribe?: () => void;
  private failures = 0;
  private lastFailureLog = 0;
  private nextSweep = 0;
  private swept = false;
  private options: Required<DispatcherOptions> = {
    idlePollMs: IDLE_POLL_MS,
    followerPollMs: FOLLOWER_POLL_MS,
  };

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly planner: NotificationPlanner,
    private readonly notifications: NotificationStore,
    @Inject(NOTIFICATION_QUEUE) private readonly queue: NotificationQueue,
    @Optional() private readonly listener?: LogListener,
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  start(options: DispatcherOptions = {}): void {
    if (this.loop) return;
    this.options = { ...this.options, ...options };
    this.stopping = false;
    // Appends anywhere (other API instances too) wake the dispatcher at once; without a
    // listener it still polls.
    this.unsubscribe = this.listener?.subscribe({ appended: this.wake, connected: this.wake }).unsubscribe;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.wakeUp?.();
    await this.loop;
    this.loop = undefined;
    await this.dropConnection();
  }

  /** Events were committed (in this process, or anywhere through NOTIFY): look now, not at the next poll. */
  readonly wake = (): void => {
    this.pendingWake = true;
    this.wakeUp?.();
  };

  /**
   * One step as leader: dispatch the next batch. Returns the number of events it covered, or
   * null when another process leads. Public for tests; the loop calls it.
   */
  async dispatchOnce(): Promise<number | null> {
    const client = await this.lead();
    if (!client) return null;
    await this.sweep();
    const checkpoint = await loadCheckpoint(client, DISPATCHER_CHECKPOINT);
    const events = await this.store.readAll(checkpoint, BATCH);
    if (events.length === 0) return 0;
    await this.notifications.forgetDeletedUsers(userDeletions(events));
    const jobs = await this.planner.plan(events);
    if (jobs.length)
      await withTimeout(this.queue.enqueue(jobs), ENQUEUE_TIMEOUT_MS, 'Queueing notifications');
    const last = events[events.length - 1];
    await client.query('BEGIN');
    try {
      await this.notifications.recordQueued(jobs, client);
      await saveCheckpoint(
        client,
        DISPATCHER_CHECKPOINT,
        { transactionId: last.transactionId, position: last.position },
        { onlyForward: true },
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return events.length;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        const moved = await this.dispatchOnce();
        if (this.failures > 0)
          this.logger.log(`Notification dispatch works again after ${this.failures} failure(s).`);
        this.failures = 0;
        if (moved === null) await this.sleep(this.options.followerPollMs, false);
        else if (moved === 0) await this.sleep(this.options.idlePollMs, true);
      } catch (error) {
        this.failures++;
        if (this.failures === 1 || Date.now() - this.lastFailureLog > 30_000) {
          this.lastFailureLog = Date.now();
          this.logger.warn(
            `Notification dispatch failed (${this.failures}x), will retry; nothing is lost: ${(error as Error).message}`,
          );
        }
        if (!this.client || isConnectionError(error)) await this.dropConnection();
        await this.sleep(Math.min(250 * 2 ** Math.min(this.failures, 6), 10_000), false);
      }
    }
  }

  /** The lock connection, if this process leads (or now becomes the leader). */
  private async lead(): Promise<Client | undefined> {
    if (!this.client) {
      const url = (this.dataSource.options as { url?: string }).url;
      if (!url) throw new Error('The notification dispatcher needs the database URL');
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      client.on('error', () => {
        if (this.client === client) void this.dropConnection();
      });
      try {
        await client.connect();
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
      this.client = client;
      this.leading = false;
    }
    if (!this.leading) {
      const { rows } = await this.client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        DISPATCHER_LOCK_ID,
      ]);
      this.leading = rows[0].ok;
      if (this.leading) this.logger.log('This process now dispatches notifications.');
    }
    return this.leading ? this.client : undefined;
  }

  private async sweep(): Promise<void> {
    if (Date.now() < this.nextSweep) return;
    this.nextSweep = Date.now() + SWEEP_EVERY_MS;
    // At the first sweep of a process with a non-durable queue, every queued job is an orphan of
    // an earlier process; otherwise only jobs untouched for a while are.
    const olderThan = !this.swept && !this.queue.durable ? 0 : STALE_AFTER_MS;
    this.swept = true;
    const stale = await this.notifications.staleQueued(olderThan, 1000);
    if (stale.length) {
      await withTimeout(this.queue.enqueue(stale), ENQUEUE_TIMEOUT_MS, 'Queueing notifications again');
      this.logger.log(`Queued ${stale.length} notification(s) again that no queue held any more.`);
    }
    await this.notifications.prune();
  }

  private async dropConnection(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.leading = false;
    // Ending the session releases the advisory lock. A dead server must not hold up a shutdown.
    if (client)
      await Promise.race([
        client.end().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 2000).unref()),
      ]);
  }

  private sleep(ms: number, wakeable: boolean): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (wakeable && this.pendingWake) {
      this.pendingWake = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = wakeable
        ? () => {
            this.pendingWake = false;
            done();
          }
        : () => {
            if (this.stopping) done();
          };
    });
  }
}

const USER_STREAM = 'user-';

function userDeletions(events: RecordedEvent[]): UserDeletion[] {
  return events
    .filter((event) => event.type === 'UserDeleted' && event.streamId.startsWith(USER_STREAM))
    .map((event) => ({ usernameKey: event.streamId.slice(USER_STREAM.length), version: event.version }));
}

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  const message = (error as Error).message ?? '';
  return (
    /^(08|57P)/.test(code) || /ECONNREFUSED|ECONNRESET|Connection terminated|not queryable/i.test(message)
  );
}
