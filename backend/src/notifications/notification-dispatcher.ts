import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { loadCheckpoint, sameCheckpoint, saveCheckpoint } from '../event-store/checkpoints.js';
import type { Client } from 'pg';
import { EventStore, type Checkpoint, type RecordedEvent } from '../event-store/event-store.js';
import { LeaderLoop, type LeaderLoopTimings, type TermCheckpoint } from '../event-store/leader-loop.js';
import { LogListener } from '../event-store/log-listener.js';
import { NotificationPlanner } from './notification-planner.js';
import { NotificationStore, type UserDeletion } from './notification-store.js';
import {
  NOTIFICATION_QUEUE,
  withTimeout,
  type NotificationJob,
  type NotificationQueue,
} from './queue/notification-queue.js';

export const DISPATCHER_CHECKPOINT = 'notifications';
/** Arbitrary but fixed: every process of one database contends for the same lock. */
const DISPATCHER_LOCK_ID = '7240913350164081004';
const BATCH = 200;
const ENQUEUE_TIMEOUT_MS = 5000;
const SWEEP_EVERY_MS = 60_000;
/** How long, or how many events, a checkpoint covering only job-less events may stay unsaved. */
const SAVE_EVERY_MS = 1000;
const SAVE_EVERY_EVENTS = 1000;
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
 * - While it holds the lock, the leader keeps its checkpoint in memory and reads it again only
 *   after (re)gaining the lock. A batch that queues jobs commits them with the checkpoint; a
 *   batch without jobs only moves the checkpoint in memory, saved with the next batch that has
 *   jobs, once the log is read to its end, or after SAVE_EVERY_MS / SAVE_EVERY_EVENTS. A leader
 *   that dies first leaves the stored checkpoint behind: its successor plans those events again,
 *   finds the same (no) jobs, and moves on.
 * - The planner is handed every event read, and keeps case states and the users in memory
 *   (notification-planner.ts); that memory lasts while the batches follow on from one another
 *   within one term: a new term, or a batch read again after one failed, resets it.
 */
@Injectable()
export class NotificationDispatcher {
  private readonly logger = new Logger('NotificationDispatcher');
  private readonly loop: LeaderLoop;
  private nextSweep = 0;
  private swept = false;
  /** The checkpoint as of the lock's term, and how many events it moved past the stored one. */
  private position: TermCheckpoint | undefined;
  /** Where the batches the planner has followed end (undefined: unknown, a batch failed). */
  private plannedUpTo: Checkpoint | null | undefined;

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
        // A short batch read the log to its end: the next wake-up brings more.
        return moved === null ? 'follower' : moved < BATCH ? 'caught-up' : 'more';
      },
    );
  }

  get isLeader(): boolean {
    return this.loop.isLeader;
  }

  /** The server process id of the lock's connection while this process leads. */
  get leaderPid(): number | undefined {
    return this.loop.pid;
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
    const term = this.loop.term;
    if (this.position?.term !== term) {
      // Another leader may have moved it while this process did not hold the lock.
      const checkpoint = await loadCheckpoint(client, DISPATCHER_CHECKPOINT);
      this.position = { term, checkpoint, unsaved: 0, since: Date.now() };
      // The planner's memory of cases and users belongs to the term as well.
      this.planner.reset();
      this.plannedUpTo = checkpoint;
    }
    const position = this.position;
    const events = await this.store.readAll(position.checkpoint, BATCH);
    if (events.length === 0) {
      // Caught up: what job-less batches moved is saved now, in one commit.
      if (position.unsaved) await this.save(client, [], position.checkpoint!);
      return 0;
    }
    await this.notifications.forgetDeletedUsers(userDeletions(events));
    // A batch read from elsewhere than where the last one planned ended (that one failed and is
    // read again) starts the planner afresh: its memory must follow the log without a jump.
    if (!sameCheckpoint(this.plannedUpTo, position.checkpoint)) this.planner.reset();
    this.plannedUpTo = undefined; // unknown until this batch is queued
    const jobs = await this.planner.plan(events);
    if (jobs.length)
      await withTimeout(this.queue.enqueue(jobs), ENQUEUE_TIMEOUT_MS, 'Queueing notifications');
    const last = events[events.length - 1];
    const checkpoint = { transactionId: last.transactionId, position: last.position };
    this.plannedUpTo = checkpoint;
    const unsaved = position.unsaved + events.length;
    if (jobs.length || unsaved >= SAVE_EVERY_EVENTS || Date.now() - position.since >= SAVE_EVERY_MS)
      await this.save(client, jobs, checkpoint);
    else if (this.position === position) {
      position.checkpoint = checkpoint;
      position.unsaved = unsaved;
    }
    return events.length;
  }

  /** Records `jobs` as queued and moves the stored checkpoint to `checkpoint`, in one commit. */
  private async save(client: Client, jobs: NotificationJob[], checkpoint: Checkpoint): Promise<void> {
    const position = this.position!;
    await client.query('BEGIN');
    try {
      await this.notifications.recordQueued(jobs, client);
      await saveCheckpoint(client, DISPATCHER_CHECKPOINT, checkpoint, { onlyForward: true });
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    // Moved only once committed: a failed commit leaves the batch to be done again.
    if (this.position === position) Object.assign(position, { checkpoint, unsaved: 0, since: Date.now() });
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
