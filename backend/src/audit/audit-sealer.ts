import {
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { LogListener } from '../event-store/log-listener.js';
import { chainHash, EVENT_HASH_SQL, GENESIS } from './audit-chain.js';

/** Arbitrary but fixed: every process of one database contends for the same lock. */
const SEALER_LOCK_ID = '7240913350164081012';
/** Events per seal statement: a restore of 100k events is sealed in ten. */
const BATCH = 10_000;
/** The fallback when a wake-up is lost, or when events were not yet commit-safe at the wake-up. */
const IDLE_POLL_MS = 500;
/** How soon another process takes over when the leader's session ends. */
const FOLLOWER_POLL_MS = 1000;

export interface SealerOptions {
  /** Overrides for tests. */
  idlePollMs?: number;
  followerPollMs?: number;
}

interface SealHead {
  seq: number;
  transactionId: string;
  position: string;
  chainHash: Buffer;
}

/**
 * Seals every event into the hash chain of `audit_seals`, in the log's commit-safe order (see
 * README.md). A leader-elected, checkpointed follower of the log like the notification dispatcher:
 * the process holding a session-level advisory lock on its own connection seals, with that
 * connection (a process that lost its session, and with it the lock, cannot write). Its checkpoint
 * is the last seal itself. Woken by this process's commits, by NOTIFY from every process's appends,
 * and by a poll of at most IDLE_POLL_MS, so an event is sealed well within 5 s of its commit unless
 * an older transaction on the server is still running (commit-safe order waits for it).
 */
@Injectable()
export class AuditSealer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AuditSealer');
  private client?: Client;
  private leading = false;
  private loop?: Promise<void>;
  private stopping = false;
  private pendingWake = false;
  private wakeUp?: () => void;
  private failures = 0;
  private unsubscribe?: () => void;
  private lastFailureLog = 0;
  private options: Required<SealerOptions> = { idlePollMs: IDLE_POLL_MS, followerPollMs: FOLLOWER_POLL_MS };

  constructor(
    private readonly dataSource: DataSource,
    @Optional() private readonly listener?: LogListener,
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  start(options: SealerOptions = {}): void {
    if (this.loop) return;
    this.options = { ...this.options, ...options };
    this.stopping = false;
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

  readonly wake = (): void => {
    this.pendingWake = true;
    this.wakeUp?.();
  };

  /**
   * One step as leader: seal the next batch. Returns how many events it sealed, or null when
   * another process leads. Public for tests; the loop calls it.
   */
  async sealOnce(): Promise<number | null> {
    const client = await this.lead();
    if (!client) return null;
    return sealNext(client, BATCH);
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        const sealed = await this.sealOnce();
        if (this.failures > 0) this.logger.log(`Sealing works again after ${this.failures} failure(s).`);
        this.failures = 0;
        if (sealed === null) await this.sleep(this.options.followerPollMs, false);
        else if (sealed < BATCH) await this.sleep(this.options.idlePollMs, true);
      } catch (error) {
        this.failures++;
        if (this.failures === 1 || Date.now() - this.lastFailureLog > 30_000) {
          this.lastFailureLog = Date.now();
          this.logger.warn(
            `Sealing the event log failed (${this.failures}x), will retry; nothing is skipped: ${(error as Error).message}`,
          );
        }
        await this.dropConnection();
        await this.sleep(Math.min(250 * 2 ** Math.min(this.failures, 6), 10_000), false);
      }
    }
  }

  /** The lock connection, if this process leads (or now becomes the leader). */
  private async lead(): Promise<Client | undefined> {
    if (!this.client) {
      const url = (this.dataSource.options as { url?: string }).url;
      if (!url) throw new Error('The audit sealer needs the database URL');
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
        SEALER_LOCK_ID,
      ]);
      this.leading = rows[0].ok;
      if (this.leading) this.logger.log('This process now seals the event log.');
    }
    return this.leading ? this.client : undefined;
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

/**
 * Seals up to `limit` commit-safe events after the last seal and returns how many. PostgreSQL
 * hashes each event where it lies; Node only chains the 32-byte hashes, then one statement writes
 * the batch. A second writer (there should be none: the lock) collides on `seq` and writes nothing.
 */
export async function sealNext(client: Client, limit: number): Promise<number> {
  const head = await readHead(client);
  const { rows } = await client.query<{ position: string; tx: string; stream_id: string; hash: Buffer }>(
    `SELECT global_position::text AS position, transaction_id::text AS tx, stream_id, ${EVENT_HASH_SQL} AS hash
       FROM events e
      WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
      ORDER BY e.transaction_id, e.global_position
      LIMIT $3`,
    [head?.transactionId ?? '0', head?.position ?? '0', limit],
  );
  if (rows.length === 0) return 0;
  let previous = head?.chainHash ?? GENESIS;
  const chain = rows.map((row) => (previous = chainHash(previous, row.hash)).toString('hex'));
  await client.query(
    `INSERT INTO audit_seals (seq, global_position, transaction_id, stream_id, event_hash, chain_hash)
     SELECT $1::bigint + r.n, r.position, r.tx, r.stream_id, decode(r.hash, 'hex'), decode(r.chain, 'hex')
       FROM unnest($2::bigint[], $3::xid8[], $4::text[], $5::text[], $6::text[])
              WITH ORDINALITY AS r(position, tx, stream_id, hash, chain, n)`,
    [
      head?.seq ?? 0,
      rows.map((row) => row.position),
      rows.map((row) => row.tx),
      rows.map((row) => row.stream_id),
      rows.map((row) => row.hash.toString('hex')),
      chain,
    ],
  );
  return rows.length;
}

async function readHead(client: Client): Promise<SealHead | undefined> {
  const { rows } = await client.query<{ seq: string; tx: string; position: string; chain_hash: Buffer }>(
    `SELECT seq::text, transaction_id::text AS tx, global_position::text AS position, chain_hash
       FROM audit_seals ORDER BY audit_seals.seq DESC LIMIT 1`,
  );
  const [row] = rows;
  return row
    ? { seq: Number(row.seq), transactionId: row.tx, position: row.position, chainHash: row.chain_hash }
    : undefined;
}
