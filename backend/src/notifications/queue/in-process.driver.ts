import {
  PermanentJobError,
  retryDelay,
  type JobHandler,
  type NotificationJob,
  type NotificationQueue,
  type RetryPolicy,
} from './notification-queue.js';

type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

/**
 * The embedded default (no REDIS_URL): the queue lives in this process's memory, with the same
 * retry and job-id semantics as the BullMQ driver, running the same handler. Finished job ids are
 * remembered (up to `retainFinished`) so that adding one again is ignored, as BullMQ does while it
 * keeps finished jobs. Not durable: jobs still queued when the process stops are queued again at
 * the next start from the deliveries table (see NotificationDispatcher.requeueStale).
 */
export class InProcessDriver implements NotificationQueue {
  readonly driver = 'in-process' as const;
  readonly durable = false;
  private readonly states = new Map<string, JobState>();
  private readonly finished: string[] = [];
  private readonly ready: { job: NotificationJob; attempt: number }[] = [];
  /** The jobs not finished, by id: the very objects `ready` and the retry timers hold. */
  private readonly unfinished = new Map<string, NotificationJob>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private handler?: JobHandler;
  private concurrency = 1;
  private closed = false;

  constructor(
    private readonly policy: RetryPolicy,
    private readonly retainFinished = 10_000,
  ) {}

  async enqueue(jobs: NotificationJob[]): Promise<void> {
    if (this.closed) throw new Error('The notification queue is closed.');
    for (const job of jobs) {
      if (this.states.has(job.id)) continue;
      this.states.set(job.id, 'waiting');
      const queued = structuredClone(job);
      this.unfinished.set(job.id, queued);
      this.ready.push({ job: queued, attempt: 1 });
    }
    this.pump();
  }

  process(handler: JobHandler, options: { concurrency: number }): void {
    this.handler = handler;
    this.concurrency = Math.max(1, options.concurrency);
    this.pump();
  }

  async depth(): Promise<number> {
    return this.ready.length + this.timers.size;
  }

  /** Finished jobs are remembered by id alone: only the unfinished hold a message. */
  async eraseMessages(ids: readonly string[], text: string): Promise<number> {
    let erased = 0;
    for (const id of ids) {
      const job = this.unfinished.get(id);
      if (!job) continue;
      job.message = { ...job.message, title: text, body: text };
      erased++;
    }
    return erased;
  }

  /** The state of a job this queue knows; for tests and diagnostics. */
  stateOf(jobId: string): JobState | undefined {
    return this.states.get(jobId);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.ready.length = 0;
    this.unfinished.clear();
    await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    const handler = this.handler;
    while (handler && !this.closed && this.running.size < this.concurrency && this.ready.length) {
      const next = this.ready.shift()!;
      const run = this.run(handler, next.job, next.attempt).finally(() => {
        this.running.delete(run);
        this.pump();
      });
      this.running.add(run);
    }
  }

  private async run(handler: JobHandler, job: NotificationJob, attempt: number): Promise<void> {
    this.states.set(job.id, 'active');
    try {
      await handler(structuredClone(job), { attempt, maxAttempts: this.policy.attempts });
      this.finish(job.id, 'completed');
    } catch (error) {
      if (error instanceof PermanentJobError || attempt >= this.policy.attempts || this.closed) {
        this.finish(job.id, 'failed');
        return;
      }
      this.states.set(job.id, 'delayed');
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          this.ready.push({ job, attempt: attempt + 1 });
          this.states.set(job.id, 'waiting');
          this.pump();
        },
        retryDelay(this.policy, attempt),
      );
      this.timers.add(timer);
    }
  }

  private finish(jobId: string, state: 'completed' | 'failed'): void {
    this.states.set(jobId, state);
    this.unfinished.delete(jobId);
    this.finished.push(jobId);
    while (this.finished.length > this.retainFinished) this.states.delete(this.finished.shift()!);
  }
}
