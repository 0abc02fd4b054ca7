import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CASE_ERASURE, isRetentionYears, SYSTEM_ACTOR, type Actor } from '@alignerflow/domain';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock.js';
import { rejectWith } from '../common/domain-rejection.js';
import { DomainRejection } from '../common/domain-rejection.js';
import { ScheduledJob } from '../scheduling/scheduled-job.js';
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
  private readonly job: ScheduledJob<string[]>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly erasure: ErasureService,
    private readonly clock: Clock,
  ) {
    this.job = new ScheduledJob(
      {
        name: 'Retention',
        what: 'retention sweep',
        intervalMs: DAY_MS,
        firstRunAfterMs: FIRST_SWEEP_MS,
        lock: { dataSource, key: SWEEP_LOCK_ID },
        report: (erased) =>
          erased.length ? `erased ${erased.length} case(s) past the retention period` : undefined,
      },
      () => this.sweepOnce(),
    );
  }

  onApplicationBootstrap(): Promise<void> {
    return this.job.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.job.stop();
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
    return this.job.run();
  }

  private async sweepOnce(): Promise<string[]> {
    const { eraseAfterYears } = await this.settings();
    if (eraseAfterYears === null) return [];
    const cutoff = new Date(this.clock.now());
    cutoff.setUTCFullYear(cutoff.getUTCFullYear() - eraseAfterYears);
    const due: { id: string }[] = await this.dataSource.query(
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
  }
}
