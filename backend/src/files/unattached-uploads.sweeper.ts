import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ScheduledJob } from '../scheduling/scheduled-job.js';
import { FILE_STORAGE, type FileStorage } from './file-storage.js';

export interface UploadSweepOptions {
  /** An upload not attached to a case by this age is removed, bytes and row. */
  maxAgeMs: number;
  /** How often each process looks. */
  intervalMs: number;
}

export const UPLOAD_SWEEP_OPTIONS = Symbol('UPLOAD_SWEEP_OPTIONS');

export const DEFAULT_UPLOAD_SWEEP: UploadSweepOptions = {
  maxAgeMs: 24 * 60 * 60 * 1000,
  intervalMs: 60 * 60 * 1000,
};

/** Rows removed per statement, so one sweep never holds many row locks at once. */
const BATCH = 500;

/**
 * Uploads that nobody attached to a case (an abandoned wizard, or someone filling the disk) are
 * removed once they are old enough. Every API process sweeps; they need no coordination because a
 * row is removed by exactly one DELETE … RETURNING, whose process then removes its bytes, and rows
 * locked by a case being created with them are skipped (SKIP LOCKED) and re-checked next time, so
 * a file that a case is claiming is never taken from under it. The row goes first: bytes whose
 * row is gone are unreachable, while a row whose bytes were gone would break an attached file.
 */
@Injectable()
export class UnattachedUploadsSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly job: ScheduledJob<number>;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(UPLOAD_SWEEP_OPTIONS) private readonly options: UploadSweepOptions,
  ) {
    this.job = new ScheduledJob(
      {
        name: 'UploadSweep',
        what: 'sweep',
        intervalMs: options.intervalMs,
        report: (removed) => (removed ? `removed ${removed} upload(s) never attached to a case` : undefined),
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

  /** Removes the unattached uploads older than the age; returns how many. */
  async sweep(): Promise<number> {
    return (await this.job.run()) ?? 0;
  }

  private async sweepOnce(): Promise<number> {
    let removed = 0;
    for (;;) {
      const [rows]: [{ storage_key: string }[], number] = await this.dataSource.query(
        `DELETE FROM uploads WHERE id IN (
           SELECT id FROM uploads
            WHERE case_id IS NULL AND created_at < now() - $1 * interval '1 millisecond'
            LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING storage_key`,
        [this.options.maxAgeMs, BATCH],
      );
      for (const row of rows) await this.storage.remove(row.storage_key);
      removed += rows.length;
      if (rows.length < BATCH) break;
    }
    // Temporary files of uploads cut short by a crash have no row at all.
    await this.storage.removeIncomingOlderThan(this.options.maxAgeMs);
    return removed;
  }
}
