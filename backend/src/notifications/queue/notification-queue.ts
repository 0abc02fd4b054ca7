/** The queue between the dispatcher (and the send endpoints) and the workers; drivers implement it. */
import type { PushMessage } from '@alignerflow/domain';

export const NOTIFICATION_QUEUE_NAME = 'notifications';
export const NOTIFICATION_QUEUE = Symbol('NOTIFICATION_QUEUE');

/** The channels of a device; email goes to the user's address instead. */
export type PushChannel = 'webpush' | 'fcm';
export type Channel = PushChannel | 'email';
export const CHANNELS: readonly Channel[] = ['webpush', 'fcm', 'email'];

/** What the device shows; the web push payload is exactly this JSON (the domain's PushMessage). */
export type NotificationMessage = PushMessage;

export interface NotificationJob {
  /**
   * Unique per notification and recipient and channel; for an event's notifications it derives
   * from (event position, recipient, channel), so a replay, retry or restart adds nothing new.
   */
  id: string;
  channel: Channel;
  username: string;
  message: NotificationMessage;
  /** global_position of the event it tells of; null for a notification sent by hand. */
  eventPosition: string | null;
}

export interface JobContext {
  /** 1 for the first run, 2 for the first retry… */
  attempt: number;
  maxAttempts: number;
}

export type JobHandler = (job: NotificationJob, context: JobContext) => Promise<void>;

/** Thrown by a handler when trying again cannot help: no further attempts. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface RetryPolicy {
  attempts: number;
  /** Delay before the first retry; it doubles for each next one (exponential backoff). */
  backoffMs: number;
}

export function retryDelay(policy: RetryPolicy, failedAttempt: number): number {
  return policy.backoffMs * 2 ** (failedAttempt - 1);
}

/**
 * Both drivers give the same guarantees: a job id the queue still knows (waiting, retrying,
 * running or recently finished) is never added twice; a failing job runs again after an
 * exponential backoff until `attempts` runs are used up, or at once gives up on PermanentJobError.
 */
export interface NotificationQueue {
  readonly driver: 'bullmq' | 'in-process';
  /** Whether queued jobs survive this process (Redis keeps them; memory does not). */
  readonly durable: boolean;
  /** Stores the jobs; rejects when they could not all be stored (then none is lost by retrying). */
  enqueue(jobs: NotificationJob[]): Promise<void>;
  /** Starts running jobs with `handler`, at most `concurrency` at a time in this process. */
  process(handler: JobHandler, options: { concurrency: number }): void;
  /** Jobs waiting to run or to be retried (for the queue-depth metric). */
  depth(): Promise<number>;
  /**
   * Replaces the title and body of the messages of the jobs among `ids` that the queue still
   * holds, waiting, retrying or finished (an erasure: they named the patient); answers how many it
   * changed. A job running meanwhile has its message already and sends it.
   */
  eraseMessages(ids: readonly string[], text: string): Promise<number>;
  close(): Promise<void>;
}

/** Rejects after `ms` if `promise` has not settled by then. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
