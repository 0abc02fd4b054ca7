import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { loadCheckpoint, saveCheckpoint } from '../event-store/checkpoints.js';
import { EventStore, type RecordedEvent } from '../event-store/event-store.js';
import { LeaderLoop, type LeaderLoopTimings } from '../event-store/leader-loop.js';
import { LogListener } from '../event-store/log-listener.js';
import { NotificationPlanner } from './notification-planner.js';
import { NotificationStore, type UserDeletion } from './notification-store.js';
import { NOTIFICATION_QUEUE, withTimeout, type NotificationQueue } from './queue/notification-queue.js';

export const DISPATCHER_CHECKPOINT = 'notifications';
/** Arbitrary but fixed: every process of one database contends for the same lock. */
const DISPATCHER_LOCK_ID = '7240913350164081004';
const BATCH = 200;
const ENQUEUE_TIMEOUT_MS = 5000;
const SWEEP_EVERY_MS = 60_000;
const STALE_AFTER_MS = 120_000;

export type DispatcherOptions = Partial<LeaderLoopTimings>;

/**
 * A checkpointed subscription on the event log that turns events into queued notification jobs.
 *
 * - Reads with EventStore.readAll (commit-safe order) from its checkpoint 'notifications', in batches.
 * - The checkpoint moves only after the batch's jobs are in the queue, in one transaction with
 *   their 'queued' rows. If the queue (Redis) is down, the batch is tried again later with
 *   backoff: nothing is lost, and since commands never wait for this loop, they keep working.
 * - Enqueueing a batch twice (a crash between enqueue and checkpoint) is harmless: job ids derive
 *   from the event, and the queue and the workers ignore an id they have seen.
 * - One dispatcher at a time per database advances the checkpoint: a leader loop
 *   (event-store/leader-loop.ts) whose lock connection also makes the checkpoint write, so a
 *   process that lost its connection, and with it the lock, cannot write a stale checkpoint. A
 *   queue failure keeps the lock; only a lost connection gives it up.
 * - As the leader, it also queues again jobs recorded as queued that no queue seems to hold any
 *   more (a Redis that lost its data, or the in-process queue of a process that stopped).
 * - A user's deletion (UserDeleted) removes the devices that user registered, before anything
 *   of the batch is queued; a batch done again removes nothing more.
 */
@Injectable()
export class NotificationDispatcher {
  private readonly logger = new Logger('NotificationDispatcher');
  private readonly loop: LeaderLoop;
  private nextSweep = 0;
  private swept = false;

  constructor(
    dataSource: DataSource,
    private readonly store: EventStore,
    private readonly planner: NotificationPlanner,
    private readonly notifications: NotificationStore,
    @Inject(NOTIFICATION_QUEUE) private readonly queue: NotificationQueue,
    @Optional() listener?: LogListener,
  ) {
    this.loop = new LeaderLoop(
      dataSource,
      listener,
      {
        lockId: DISPATCHER_LOCK_ID,
        idlePollMs: 500,
        followerPollMs: 2000,
        logger: this.logger,
        texts: {
          leading: 'This process now dispatches notifications.',
          failed: (failures, message) =>
            `Notification dispatch failed (${failures}x), will retry; nothing is lost: ${message}`,
          recovered: (failures) => `Notification dispatch works again after ${failures} failure(s).`,
        },
        dropsSession: isConnectionError,
      },
      async () => {
        const moved = await this.dispatchOnce();
        return moved === null ? 'follower' : moved === 0 ? 'caught-up' : 'more';
      },
    );
  }

  get isLeader(): boolean {
    return this.loop.isLeader;
  }

  start(options: DispatcherOptions = {}): void {
    this.loop.start(options);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Events were committed (in this process, or anywhere through NOTIFY): look now, not at the next poll. */
  readonly wake = (): void => this.loop.wake();

  /**
   * One step as leader: dispatch the next batch. Returns the number of events it covered, or
   * null when another process leads. Public for tests; the loop calls it.
   */
  async dispatchOnce(): Promise<number | null> {
    const client = await this.loop.lead();
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
