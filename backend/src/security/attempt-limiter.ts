import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ScheduledJob } from '../scheduling/scheduled-job.js';

export interface LimitVerdict {
  allowed: boolean;
  /** Whole seconds until the key's window ends; 0 when allowed. */
  retryAfterSeconds: number;
}

/** Rows whose window ended are removed this often (and once at start). */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

interface CountRow {
  attempts: number;
  retry_after: string | number;
}

/**
 * Counts attempts per key in PostgreSQL, so every API process sees the same counts. Fixed window:
 * it opens at the first attempt counted for a key and lasts `windowMs`; while it is open and the
 * key has `limit` attempts, the key is refused until the window ends (refused attempts do not
 * extend it). The database clock decides, so processes with skewed clocks agree.
 */
@Injectable()
export class AttemptLimiter implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AttemptLimiter');
  // Every process purges: the DELETE is idempotent, so no lock is needed.
  private readonly purge = new ScheduledJob(
    { name: 'AttemptLimiter', what: 'purge', intervalMs: PURGE_INTERVAL_MS, runAtStart: true },
    () => this.purgeExpired(),
  );

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.purge.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.purge.stop();
  }

  /** Whether one more attempt would be allowed now; counts nothing. */
  async check(key: string, limit: number, windowMs: number): Promise<LimitVerdict> {
    void windowMs; // the window of a counted key is fixed when its first attempt is recorded
    const rows: CountRow[] = await this.dataSource.query(
      `SELECT attempts, ceil(extract(epoch FROM expires_at - now())) AS retry_after
         FROM attempt_counts WHERE key = $1 AND expires_at > now()`,
      [key],
    );
    return verdict(rows[0], limit);
  }

  /** Counts one attempt for the key. */
  async record(key: string, windowMs: number): Promise<void> {
    await this.upsert(key, windowMs);
  }

  /** Counts one attempt and says whether it was within the limit, in one statement. */
  async consume(key: string, limit: number, windowMs: number): Promise<LimitVerdict> {
    return verdict(await this.upsert(key, windowMs), limit, 1);
  }

  /** Takes back one attempt counted by `consume` (one that turned out not to be a failure). */
  async release(key: string): Promise<void> {
    await this.dataSource.query(
      'UPDATE attempt_counts SET attempts = greatest(attempts - 1, 0) WHERE key = $1 AND expires_at > now()',
      [key],
    );
  }

  async clear(key: string): Promise<void> {
    await this.dataSource.query('DELETE FROM attempt_counts WHERE key = $1', [key]);
  }

  /** Removes the counts whose window has ended; returns how many. */
  async purgeExpired(): Promise<number> {
    try {
      const [, removed]: [unknown, number] = await this.dataSource.query(
        'DELETE FROM attempt_counts WHERE expires_at <= now()',
      );
      return removed;
    } catch (error) {
      // A purge that fails (database restarting) is retried at the next interval.
      this.logger.warn(`purge failed: ${(error as Error).message}`);
      return 0;
    }
  }

  private async upsert(key: string, windowMs: number): Promise<CountRow> {
    const rows: CountRow[] = await this.dataSource.query(
      `INSERT INTO attempt_counts AS c (key, attempts, expires_at)
       VALUES ($1, 1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         attempts = CASE WHEN c.expires_at <= now() THEN 1 ELSE c.attempts + 1 END,
         expires_at = CASE WHEN c.expires_at <= now() THEN EXCLUDED.expires_at ELSE c.expires_at END
       RETURNING attempts, ceil(extract(epoch FROM expires_at - now())) AS retry_after`,
      [key, Math.max(1, Math.round(windowMs))],
    );
    return rows[0];
  }
}

/** `counted` is how many of the row's attempts are the one being judged (consume counts itself). */
function verdict(row: CountRow | undefined, limit: number, counted = 0): LimitVerdict {
  if (!row || row.attempts - counted < limit) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Number(row.retry_after)) };
}
