import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CASE_ERASURE, isRetentionYears, SYSTEM_ACTOR, type Actor } from '@alignerflow/domain';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock.js';
import { rejectWith } from '../common/domain-rejection.js';
import { DomainRejection } from '../common/domain-rejection.js';
import { ErasureService } from './erasure.service.js';

export interface RetentionSettings {
  eraseAfterYears: number | null;
}

/** Arbitrary but fixed: the processes of one database take turns sweeping. */
const SWEEP_LOCK_ID = '7240913350164081043';
const DAY_MS = 86_400_000;
/** The first sweep waits for the start to settle. */
const FIRST_SWEEP_MS = 60_000;
/** Cases erased per sweep at most; the next day's sweep goes on. */
const SWEEP_LIMIT = 1000;

/**
 * The lab's retention rule (api.md "Patient data"): once a day, the cases completed more than
 * `eraseAfterYears` years ago are erased by the system, reason "retention", through the same
 * erasure as a Manager's. Also a minute after start, so a lab whose process never lives a whole
 * day still sweeps. One process at a time (advisory lock); an erased case is never erased twice (decide).
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Retention');
  private first?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;
  private running?: Promise<string[] | null>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly erasure: ErasureService,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.first = setTimeout(() => void this.sweepLogged(), FIRST_SWEEP_MS);
    this.first.unref();
    this.timer = setInterval(() => void this.sweepLogged(), DAY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.first);
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  async settings(): Promise<RetentionSettings> {
    const [row]: { erase_after_years: number | null }[] = await this.dataSource.query(
      'SELECT erase_after_years FROM retention_settings',
    );
    return { eraseAfterYears: row?.erase_after_years ?? null };
  }

  async save(eraseAfterYears: unknown, actor: Actor): Promise<RetentionSettings> {
    if (!isRetentionYears(eraseAfterYears)) rejectWith('invalid', CASE_ERASURE.retentionRange);
    await this.dataSource.query(
      `INSERT INTO retention_settings (id, erase_after_years, updated_at, updated_by) VALUES (true, $1, now(), $2)
       ON CONFLICT (id) DO UPDATE SET erase_after_years = $1, updated_at = now(), updated_by = $2`,
      [eraseAfterYears, actor.username],
    );
    return { eraseAfterYears };
  }

  /** One sweep as of the clock's now: the ids erased, or null when another process sweeps. */
  sweep(): Promise<string[] | null> {
    const run = (this.running ?? Promise.resolve(null)).catch(() => null).then(() => this.sweepOnce());
    this.running = run;
    return run;
  }

  private async sweepLogged(): Promise<void> {
    try {
      const erased = await this.sweep();
      if (erased?.length) this.logger.log(`erased ${erased.length} case(s) past the retention period`);
    } catch (error) {
      this.logger.warn(`retention sweep failed: ${(error as Error).message}`);
    }
  }

  private async sweepOnce(): Promise<string[] | null> {
    const { eraseAfterYears } = await this.settings();
    if (eraseAfterYears === null) return [];
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ ok }] = await runner.query('SELECT pg_try_advisory_lock($1) AS ok', [SWEEP_LOCK_ID]);
      if (!ok) return null;
      try {
        const cutoff = new Date(this.clock.now());
        cutoff.setUTCFullYear(cutoff.getUTCFullYear() - eraseAfterYears);
        const due: { id: string }[] = await runner.query(
          `SELECT r.id FROM report_cases r JOIN case_view v ON v.id = r.id
            WHERE r.status = 'Completed' AND r.completed_at < $1 AND NOT r.deleted AND NOT v.deleted
              AND NOT v.data ? 'erasedAt'
            ORDER BY r.completed_at LIMIT ${SWEEP_LIMIT}`,
          [cutoff],
        );
        const erased: string[] = [];
        for (const { id } of due) {
          try {
            await this.erasure.erase(id, CASE_ERASURE.retentionReason, SYSTEM_ACTOR, {
              correlationId: `retention-${randomUUID()}`,
            });
            erased.push(id);
          } catch (error) {
            // One case refused (changed meanwhile) must not stop the others.
            if (!(error instanceof DomainRejection)) throw error;
          }
        }
        return erased;
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [SWEEP_LOCK_ID]);
      }
    } finally {
      await runner.release();
    }
  }
}
