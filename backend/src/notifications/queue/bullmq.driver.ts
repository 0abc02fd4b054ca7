import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import {
  NOTIFICATION_QUEUE_NAME,
  PermanentJobError,
  type JobHandler,
  type NotificationJob,
  type NotificationQueue,
  type RetryPolicy,
  withTimeout,
} from './notification-queue.js';

export interface BullMqDriverOptions {
  redisUrl: string;
  /** Key prefix in Redis ('bull' by default). */
  prefix: string;
  policy: RetryPolicy;
  /** A crashed worker's running job is taken over by another worker after about this long. */
  lockMs: number;
  onError: (error: Error) => void;
}

const DAY_SECONDS = 24 * 3600;

/**
 * Production driver: the queue 'notifications' in Redis through BullMQ, shared by every process.
 * Job ids are BullMQ job ids, so adding an id that Redis still holds (waiting, delayed, active,
 * or finished within the retention below) is a no-op. Finished jobs are kept 7 days (failed ones
 * 30) for that reason; the deliveries table guards beyond that.
 */
export class BullMqDriver implements NotificationQueue {
  readonly driver = 'bullmq' as const;
  readonly durable = true;
  private readonly queue: Queue;
  private worker?: Worker;

  constructor(private readonly options: BullMqDriverOptions) {
    this.queue = new Queue(NOTIFICATION_QUEUE_NAME, {
      // Fail fast while Redis is away: the dispatcher then keeps its checkpoint and tries again,
      // instead of piling commands up in memory.
      connection: { ...redisOptions(options.redisUrl), enableOfflineQueue: false, maxRetriesPerRequest: 1 },
      prefix: options.prefix,
    });
    this.queue.on('error', options.onError);
  }

  async enqueue(jobs: NotificationJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const { attempts, backoffMs } = this.options.policy;
    const adding = this.queue.addBulk(
      jobs.map((job) => ({
        name: job.channel,
        data: job,
        opts: {
          jobId: job.id,
          attempts,
          backoff: { type: 'exponential', delay: backoffMs },
          removeOnComplete: { age: 7 * DAY_SECONDS, count: 100_000 },
          removeOnFail: { age: 30 * DAY_SECONDS, count: 100_000 },
        },
      })),
    );
    await withTimeout(adding, 3000, 'Adding jobs to Redis');
  }

  depth(): Promise<number> {
    const counting = this.queue.getJobCountByTypes('waiting', 'delayed', 'prioritized');
    return withTimeout(counting, 1000, 'Redis');
  }

  /** Finished jobs keep their data in Redis for days (see enqueue): theirs are rewritten too. */
  async eraseMessages(ids: readonly string[], text: string): Promise<number> {
    let erased = 0;
    for (const id of ids) {
      const job = await withTimeout(this.queue.getJob(id), 3000, 'Redis');
      if (!job?.data) continue;
      const { message } = job.data as NotificationJob;
      await withTimeout(
        job.updateData({ ...job.data, message: { ...message, title: text, body: text } }),
        3000,
        'Redis',
      );
      erased++;
    }
    return erased;
  }

  process(handler: JobHandler, options: { concurrency: number }): void {
    if (this.worker) throw new Error('This queue already has a worker.');
    this.worker = new Worker<NotificationJob>(
      NOTIFICATION_QUEUE_NAME,
      async (job: Job<NotificationJob>) => {
        try {
          await handler(job.data, { attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1 });
        } catch (error) {
          if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message);
          throw error;
        }
      },
      {
        connection: { ...redisOptions(this.options.redisUrl), maxRetriesPerRequest: null },
        prefix: this.options.prefix,
        concurrency: options.concurrency,
        lockDuration: this.options.lockMs,
        stalledInterval: Math.max(1000, Math.round(this.options.lockMs / 2)),
        // A job whose worker died twice in a row is not a poison pill yet: allow a third run.
        maxStalledCount: 2,
      },
    );
    this.worker.on('error', this.options.onError);
  }

  /**
   * Lets running jobs finish, then closes the connections. With Redis unreachable a graceful close
   * would wait for it forever, so the worker is then closed at once (a job cut short is taken over
   * by another worker when its lock expires; it could not have been completed without Redis anyway).
   */
  async close(graceMs = 10_000): Promise<void> {
    const reachable = await withTimeout(this.queue.count(), 1000, 'Redis').then(
      () => true,
      () => false,
    );
    const closing = async () => {
      await this.worker?.close(!reachable);
      await this.queue.close();
    };
    await withTimeout(closing(), reachable ? graceMs : 3000, 'Closing the notification queue').catch(
      () => undefined,
    );
  }
}

/** ioredis options from a redis:// or rediss:// URL. */
export function redisOptions(url: string): {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: object;
} {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.replace(/^\//, '') || 0);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: Number(parsed.port || 6379),
    db: Number.isInteger(db) ? db : 0,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}
