import {
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { LeaderLoop, type LeaderLoopTimings } from '../event-store/leader-loop.js';
import { LogListener } from '../event-store/log-listener.js';
import { chainHash, EVENT_HASH_SQL, GENESIS } from './audit-chain.js';

/** Arbitrary but fixed: every process of one database contends for the same lock. */
const SEALER_LOCK_ID = '7240913350164081012';
/** Events per seal statement: a restore of 100k events is sealed in ten. */
const BATCH = 10_000;

export type SealerOptions = Partial<LeaderLoopTimings>;

interface SealHead {
  seq: number;
  transactionId: string;
  position: string;
  chainHash: Buffer;
}

/**
 * Seals every event into the hash chain of `audit_seals`, in the log's commit-safe order (see
 * README.md). A leader loop like the notification dispatcher (event-store/leader-loop.ts): only
 * the process holding the lock seals, with the lock's connection. Its checkpoint is the last seal
 * itself. An event is sealed well within 5 s of its commit unless an older transaction on the
 * server is still running (commit-safe order waits for it).
 */
@Injectable()
export class AuditSealer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loop: LeaderLoop;

  constructor(dataSource: DataSource, @Optional() listener?: LogListener) {
    this.loop = new LeaderLoop(
      dataSource,
      listener,
      {
        lockId: SEALER_LOCK_ID,
        idlePollMs: 500,
        followerPollMs: 1000,
        logger: new Logger('AuditSealer'),
        texts: {
          leading: 'This process now seals the event log.',
          failed: (failures, message) =>
            `Sealing the event log failed (${failures}x), will retry; nothing is skipped: ${message}`,
          recovered: (failures) => `Sealing works again after ${failures} failure(s).`,
        },
      },
      async () => {
        const sealed = await this.sealOnce();
        return sealed === null ? 'follower' : sealed < BATCH ? 'caught-up' : 'more';
      },
    );
  }

  get isLeader(): boolean {
    return this.loop.isLeader;
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  start(options: SealerOptions = {}): void {
    this.loop.start(options);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  readonly wake = (): void => this.loop.wake();

  /**
   * One step as leader: seal the next batch. Returns how many events it sealed, or null when
   * another process leads. Public for tests; the loop calls it.
   */
  async sealOnce(): Promise<number | null> {
    const client = await this.loop.lead();
    if (!client) return null;
    return sealNext(client, BATCH);
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
