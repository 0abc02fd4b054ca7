import {
  Inject,
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
import type { KeyObject } from 'node:crypto';
import { Clock } from '../common/clock.js';
import { chainHash, GENESIS } from '../common/hash-chain.js';
import {
  checkpointMessage,
  EVENT_HEAD_SQL,
  eventHash,
  sealMessage,
  sha256Hex,
  signMessage,
} from './audit-chain.js';
import { AUDIT_KEY, type SigningKey } from './signing-key.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

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
  checkpointSeq: number;
  checkpointAt: number;
}

/**
 * Seals and signs every event into the hash chain of `audit_chain`, in the log's commit-safe order (see
 * README.md). A leader loop like the notification dispatcher (event-store/leader-loop.ts): only
 * the process holding the lock seals, with the lock's connection. Its checkpoint is the last seal
 * itself. An event is sealed well within 5 s of its commit unless an older transaction on the
 * server is still running (commit-safe order waits for it).
 */
@Injectable()
export class AuditSealer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loop: LeaderLoop;
  private readonly runs: boolean;
  /** The last seal, as of the lock's term it was read or written in. */
  private head: { term: number; head: SealHead | undefined } | undefined;

  constructor(
    dataSource: DataSource,
    @Inject(AUDIT_KEY) private readonly key: SigningKey,
    private readonly clock: Clock,
    @Optional() listener?: LogListener,
    @Optional() @Inject(APP_CONFIG) config?: Pick<AppConfig, 'processRole'>,
  ) {
    // The API process answers commands and nothing else: the workers seal (PROCESS_ROLE).
    this.runs = config?.processRole !== 'api';
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

  /** The server process id of the lock's connection while this process leads. */
  get leaderPid(): number | undefined {
    return this.loop.pid;
  }

  onApplicationBootstrap(): void {
    if (this.runs) this.start();
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
    const term = this.loop.term;
    // Read once per term: while the lock holds, only this process writes the chain.
    if (this.head?.term !== term) this.head = { term, head: await readHead(client) };
    const { sealed, head } = await sealAfter(
      client,
      this.head.head,
      BATCH,
      this.key.privateKey,
      this.clock.now(),
    );
    // After the commit only: a failure drops the session, and the next term reads the head again.
    if (this.loop.term === term) this.head = { term, head };
    return sealed;
  }
}

/** The contract's bounds between two checkpoints (api.md, Signed history). */
export const CHECKPOINT_EVERY_SEALS = 1000;
export const CHECKPOINT_EVERY_MS = 10 * 60_000;

/**
 * Seals up to `limit` commit-safe events after the last seal and returns how many. Node reads each
 * row's canonical head and data text, hashes and chains them, and signs every seal; one statement
 * writes the batch, and the checkpoints it crosses go in the same transaction. A second writer
 * (there should be none: the lock) collides on `seq` and writes nothing.
 */
export async function sealNext(
  client: Client,
  limit: number,
  key: KeyObject,
  now = Date.now(),
): Promise<number> {
  return (await sealAfter(client, await readHead(client), limit, key, now)).sealed;
}

/**
 * sealNext from a head the caller holds (the sealer keeps it while it holds the lock). Returns
 * the new head, which is the old one when nothing was written.
 */
export async function sealAfter(
  client: Client,
  head: SealHead | undefined,
  limit: number,
  key: KeyObject,
  now = Date.now(),
): Promise<{ sealed: number; head: SealHead | undefined }> {
  const { rows } = await client.query<{
    position: string;
    tx: string;
    stream_id: string;
    head: string;
    data: string;
  }>(
    `SELECT global_position::text AS position, transaction_id::text AS tx, stream_id,
            ${EVENT_HEAD_SQL} AS head, e.data::text AS data
       FROM events e
      WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
      ORDER BY e.transaction_id, e.global_position
      LIMIT $3`,
    [head?.transactionId ?? '0', head?.position ?? '0', limit],
  );
  const checkpoints: { seq: number; position: string; chain: Buffer }[] = [];
  const seals = [];
  let previous = head?.chainHash ?? GENESIS;
  let seq = head?.seq ?? 0;
  for (const row of rows) {
    seq++;
    previous = chainHash(previous, eventHash(row.head, sha256Hex(row.data)));
    seals.push({
      ...row,
      seq,
      chain: previous,
      signature: signMessage(key, sealMessage(seq, row.position, previous)),
    });
    if (seq % CHECKPOINT_EVERY_SEALS === 0)
      checkpoints.push({ seq, position: row.position, chain: previous });
  }
  const lastCheckpoint = checkpoints.at(-1)?.seq ?? head?.checkpointSeq ?? 0;
  const lastCheckpointAt = checkpoints.length ? now : (head?.checkpointAt ?? -Infinity);
  // The time bound: the seals since the last checkpoint get one once it is 10 minutes old (and the
  // first seals get one at once).
  if (seq > lastCheckpoint && now - lastCheckpointAt >= CHECKPOINT_EVERY_MS)
    checkpoints.push(
      seals.length
        ? { seq, position: seals[seals.length - 1].position, chain: previous }
        : { seq, position: head!.position, chain: head!.chainHash },
    );
  if (seals.length === 0 && checkpoints.length === 0) return { sealed: 0, head };
  await client.query('BEGIN');
  try {
    if (seals.length)
      await client.query(
        `INSERT INTO audit_chain (seq, global_position, transaction_id, stream_id, chain_hash, signature)
         SELECT r.seq, r.position, r.tx, r.stream_id, decode(r.chain, 'hex'), decode(r.signature, 'hex')
           FROM unnest($1::bigint[], $2::bigint[], $3::xid8[], $4::text[], $5::text[], $6::text[])
                  AS r(seq, position, tx, stream_id, chain, signature)`,
        [
          seals.map((seal) => seal.seq),
          seals.map((seal) => seal.position),
          seals.map((seal) => seal.tx),
          seals.map((seal) => seal.stream_id),
          seals.map((seal) => seal.chain.toString('hex')),
          seals.map((seal) => seal.signature.toString('hex')),
        ],
      );
    for (const checkpoint of checkpoints) {
      const at = new Date(now).toISOString();
      const headHash = checkpoint.chain.toString('hex');
      const signature = signMessage(key, checkpointMessage({ position: checkpoint.position, headHash, at }));
      await client.query(
        `INSERT INTO audit_checkpoints (seq, global_position, head_hash, at, signature) VALUES ($1, $2, $3, $4, $5)`,
        [checkpoint.seq, checkpoint.position, checkpoint.chain, at, signature],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  const last = seals.at(-1);
  const checkpoint = checkpoints.at(-1);
  return {
    sealed: seals.length,
    head: {
      seq,
      transactionId: last?.tx ?? head!.transactionId,
      position: last?.position ?? head!.position,
      chainHash: previous,
      checkpointSeq: checkpoint?.seq ?? head?.checkpointSeq ?? 0,
      checkpointAt: checkpoint ? now : (head?.checkpointAt ?? -Infinity),
    },
  };
}

async function readHead(client: Client): Promise<SealHead | undefined> {
  const { rows } = await client.query<{
    seq: string;
    tx: string;
    position: string;
    chain_hash: Buffer;
    checkpoint_seq: string | null;
    checkpoint_at: Date | null;
  }>(
    `SELECT s.seq::text, s.transaction_id::text AS tx, s.global_position::text AS position, s.chain_hash,
            c.seq::text AS checkpoint_seq, c.at AS checkpoint_at
       FROM (SELECT * FROM audit_chain ORDER BY audit_chain.seq DESC LIMIT 1) s
       LEFT JOIN (SELECT * FROM audit_checkpoints ORDER BY audit_checkpoints.seq DESC LIMIT 1) c ON true`,
  );
  const [row] = rows;
  return row
    ? {
        seq: Number(row.seq),
        transactionId: row.tx,
        position: row.position,
        chainHash: row.chain_hash,
        checkpointSeq: row.checkpoint_seq === null ? 0 : Number(row.checkpoint_seq),
        checkpointAt: row.checkpoint_at?.getTime() ?? -Infinity,
      }
    : undefined;
}
