import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

export interface ScheduledJobOptions<T> {
  /** The logger's context, e.g. `UploadSweep`. */
  name: string;
  /** What a failure is called in the log: `${what} failed: …`. */
  what: string;
  /** Time between two runs. */
  intervalMs: number;
  /** Runs once when started (start() waits for it), else first after one interval. */
  runAtStart?: boolean;
  /**
   * A first run this long after the start, not waited for (a daily job whose process may not live
   * a whole day); then every interval.
   */
  firstRunAfterMs?: number;
  /**
   * One process of the database at a time: the run takes this PostgreSQL advisory lock (a bigint,
   * fixed per job) without waiting, and a process that does not get it skips that run.
   */
  lock?: { dataSource: DataSource; key: string };
  /** A line to log after a run that did something (nothing is logged for undefined). */
  report?: (result: T) => string | undefined;
}

/**
 * A periodic job of a process: started by its owner's bootstrap hook, stopped by its shutdown
 * hook (which waits for the run in progress, so the pool is not closed under it). Runs of one
 * process never overlap: a tick that finds a run in progress is skipped, and run() waits its
 * turn. A failed timed run is logged and retried at the next tick, never thrown: the database
 * may be restarting, and the process must not die of it.
 */
export class ScheduledJob<T> {
  private readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private first?: NodeJS.Timeout;
  private running?: Promise<T | null>;
  private stopped = false;

  constructor(
    private readonly options: ScheduledJobOptions<T>,
    private readonly work: (now?: Date) => Promise<T>,
  ) {
    this.logger = new Logger(options.name);
  }

  async start(): Promise<void> {
    this.stopped = false;
    if (this.options.runAtStart) await this.tick();
    if (this.stopped) return;
    if (this.options.firstRunAfterMs !== undefined) {
      this.first = setTimeout(() => void this.tick(), this.options.firstRunAfterMs);
      this.first.unref();
    }
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  /** No more ticks; resolves once the run in progress (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.first);
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /**
   * One run, after the one in progress: its result, or null when another process holds the
   * lock. `now` is handed to the work (tests move the clock; timed runs pass none, the work reads
   * its own). Errors reach the caller; timed runs log them.
   */
  run(now?: Date): Promise<T | null> {
    const run = (this.running ?? Promise.resolve(null))
      .catch(() => null)
      .then(() => this.runOnce(now))
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run;
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    try {
      const result = await this.run();
      const line = result === null ? undefined : this.options.report?.(result);
      if (line) this.logger.log(line);
    } catch (error) {
      this.logger.warn(`${this.options.what} failed: ${(error as Error).message}`);
    }
  }

  private async runOnce(now: Date | undefined): Promise<T | null> {
    const { lock } = this.options;
    if (!lock) return this.work(now);
    const runner = lock.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ ok }] = await runner.query('SELECT pg_try_advisory_lock($1) AS ok', [lock.key]);
      if (!ok) return null;
      try {
        return await this.work(now);
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [lock.key]);
      }
    } finally {
      await runner.release();
    }
  }
}
