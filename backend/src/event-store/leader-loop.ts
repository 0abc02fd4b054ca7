import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { Checkpoint } from './event-types.js';
import { LogListener } from './log-listener.js';

/** What one step of a leader's work says about the next: lead elsewhere, caught up, or more now. */
export type LeaderStep = 'follower' | 'caught-up' | 'more';

/**
 * A follower's checkpoint as a leader keeps it in memory: read at the start of its lock's `term`,
 * and how many events it moved past the stored one since it was last saved (`since`, ms).
 */
export interface TermCheckpoint {
  term: number;
  checkpoint: Checkpoint | null;
  unsaved: number;
  since: number;
}

export interface LeaderLoopTimings {
  /** The fallback when a wake-up is lost, or when events were not yet commit-safe at the wake-up. */
  idlePollMs: number;
  /** How soon another process takes over when the leader's session ends. */
  followerPollMs: number;
}

export interface LeaderLoopSettings extends LeaderLoopTimings {
  /** Arbitrary but fixed per job: every process of one database contends for the same lock. */
  lockId: string;
  logger: Logger;
  /** The log lines, in the job's own words. */
  texts: {
    leading: string;
    failed: (failures: number, message: string) => string;
    recovered: (failures: number) => string;
  };
  /** Whether a failure ends the lock's session (default: always). */
  dropsSession?: (error: unknown) => boolean;
}

/**
 * A leader-elected, checkpointed follower of the log (the notification dispatcher, the audit
 * sealer): the process holding a session-level advisory lock on its own connection does the work,
 * with that connection, so a process that lost its session, and with it the lock, cannot write.
 * Others poll for the lock and take over when the leader's session ends. The leader is woken once
 * per batch of commits (LogListener: NOTIFY from every process's appends), and polls in case a
 * wake-up is lost; a failure is retried with backoff and logged once per 30 s. A step runs on its
 * own turn of the event loop, never on the turn that answers a command.
 */
export class LeaderLoop {
  private client?: Client;
  private leading = false;
  private terms = 0;
  private loop?: Promise<void>;
  private stopping = false;
  private pendingWake = false;
  private wakeUp?: () => void;
  private unsubscribe?: () => void;
  private failures = 0;
  private lastFailureLog = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly listener: LogListener | undefined,
    private settings: LeaderLoopSettings,
    private readonly step: () => Promise<LeaderStep>,
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  /**
   * Counts the times this process gained the lock. A leader may keep its head or checkpoint in
   * memory while the term it read them in lasts: nobody else writes them meanwhile. A new term
   * (the session ended, or the lock went to another process and came back) means reading them
   * again, since another leader may have moved them.
   */
  get term(): number {
    return this.terms;
  }

  /** The server process id of the lock's connection while this process leads (for fault tests). */
  get pid(): number | undefined {
    return this.leading
      ? ((this.client as unknown as { processID?: number }).processID ?? undefined)
      : undefined;
  }

  start(timings: Partial<LeaderLoopTimings> = {}): void {
    if (this.loop) return;
    this.settings = { ...this.settings, ...timings };
    this.stopping = false;
    // Appends anywhere (other processes too) wake the leader at once; without a listener it polls.
    this.unsubscribe = this.listener?.subscribe({ appended: this.wake, connected: this.wake }).unsubscribe;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.wakeUp?.();
    await this.loop;
    this.loop = undefined;
    await this.dropConnection();
  }

  /** Events were committed (here, or anywhere through NOTIFY): look now, not at the next poll. */
  readonly wake = (): void => {
    this.pendingWake = true;
    this.wakeUp?.();
  };

  /** The lock connection, if this process leads (or now becomes the leader). */
  async lead(): Promise<Client | undefined> {
    if (!this.client) {
      const url = (this.dataSource.options as { url?: string }).url;
      if (!url) throw new Error('A leader loop needs the database URL');
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      client.on('error', () => {
        if (this.client === client) void this.dropConnection();
      });
      try {
        await client.connect();
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
      this.client = client;
      this.leading = false;
    }
    if (!this.leading) {
      const { rows } = await this.client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        this.settings.lockId,
      ]);
      this.leading = rows[0].ok;
      if (this.leading) {
        this.terms++;
        this.settings.logger.log(this.settings.texts.leading);
      }
    }
    return this.leading ? this.client : undefined;
  }

  private async run(): Promise<void> {
    const { logger, texts } = this.settings;
    while (!this.stopping) {
      try {
        const next = await this.step();
        if (this.failures > 0) logger.log(texts.recovered(this.failures));
        this.failures = 0;
        if (next === 'follower') await this.sleep(this.settings.followerPollMs, false);
        else if (next === 'caught-up') await this.sleep(this.settings.idlePollMs, true);
      } catch (error) {
        this.failures++;
        if (this.failures === 1 || Date.now() - this.lastFailureLog > 30_000) {
          this.lastFailureLog = Date.now();
          logger.warn(texts.failed(this.failures, (error as Error).message));
        }
        if (!this.client || (this.settings.dropsSession?.(error) ?? true)) await this.dropConnection();
        await this.sleep(Math.min(250 * 2 ** Math.min(this.failures, 6), 10_000), false);
      }
    }
  }

  private async dropConnection(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.leading = false;
    // Ending the session releases the advisory lock. A dead server must not hold up a shutdown.
    if (client)
      await Promise.race([
        client.end().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 2000).unref()),
      ]);
  }

  private sleep(ms: number, wakeable: boolean): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (wakeable && this.pendingWake) {
      this.pendingWake = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = wakeable
        ? () => {
            this.pendingWake = false;
            done();
          }
        : () => {
            if (this.stopping) done();
          };
    });
  }
}
