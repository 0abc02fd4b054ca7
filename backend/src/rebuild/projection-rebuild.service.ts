import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventStore } from '../event-store/event-store.js';
import { ProjectionRebuilder } from './projection-rebuilder.js';
import { IDLE_PROGRESS, type RebuildOptions, type RebuildProgress } from './rebuild-progress.js';

const LOG_EVERY_MS = 2000;

/**
 * Rebuilds of the read models in this process: one at a time, in the background for the admin
 * endpoint, awaited for a restore. Progress of the latest run is kept for GET.
 */
@Injectable()
export class ProjectionRebuildService {
  private readonly logger = new Logger('Rebuild');
  private readonly rebuilder: ProjectionRebuilder;
  private progress: RebuildProgress = IDLE_PROGRESS;
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;

  constructor(dataSource: DataSource, store: EventStore) {
    this.rebuilder = new ProjectionRebuilder(dataSource, store);
  }

  status(): RebuildProgress {
    return { ...this.progress };
  }

  /** Starts a rebuild in the background unless one is under way; answers its progress. */
  start(): RebuildProgress {
    if (this.pending === 0) {
      this.run().catch(() => undefined); // the outcome is kept in the progress
    }
    return this.status();
  }

  /** Rebuilds now (after the run under way, if any); resolves once the new tables are live. */
  run(options: RebuildOptions = {}): Promise<RebuildProgress> {
    this.pending++;
    if (this.pending === 1) {
      this.progress = { ...IDLE_PROGRESS, state: 'running', startedAt: new Date().toISOString() };
    }
    const run = this.queue.then(() => this.runNow(options)).finally(() => this.pending--);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runNow(options: RebuildOptions): Promise<RebuildProgress> {
    let lastLog = 0;
    this.progress = { ...IDLE_PROGRESS, state: 'running', startedAt: new Date().toISOString() };
    try {
      const result = await this.rebuilder.run({
        ...options,
        onProgress: (progress) => {
          this.progress = progress;
          options.onProgress?.(progress);
          if (progress.state === 'running' && Date.now() - lastLog >= LOG_EVERY_MS) {
            lastLog = Date.now();
            this.logger.log(describe(progress));
          }
        },
      });
      this.logger.log(`Read models rebuilt: ${describe(result)}; the swap took ${result.swapMs} ms.`);
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.progress = {
        ...this.progress,
        state: 'failed',
        finishedAt: new Date().toISOString(),
        error: message,
      };
      this.logger.error(`Rebuilding the read models failed: ${message}`);
      throw error;
    }
  }
}

export function describe(progress: RebuildProgress): string {
  const number = (n: number) => n.toLocaleString('en-US');
  return `${number(progress.eventsDone)} of ${number(progress.eventsTotal)} events, ${number(progress.eventsPerSecond)} events/s`;
}
