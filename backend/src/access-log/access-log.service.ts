import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { AccessAction, AccessEntry, AccessLogFilter, Actor } from '@alignerflow/domain';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { clientAddress } from '../common/client-address.js';
import { GENESIS } from '../common/hash-chain.js';
import { sealEntry, type AccessRecord } from './access-log.chain.js';

/** How often the entries held in memory are written. */
export const FLUSH_INTERVAL_MS = 1000;
/** A batch this large is written at once, without waiting for the timer. */
const FLUSH_AT = 500;
/**
 * Entries kept while the database refuses them; past this the oldest are dropped (and counted in
 * the log) rather than let memory grow without end during an outage.
 */
const MAX_PENDING = 100_000;
/** Any fixed key: one writer at a time extends the chain (pg_advisory_xact_lock). */
const CHAIN_LOCK = 740_040;

/**
 * The access log's writer (README.md). Reads are hot: `record` only pushes onto an array, and a
 * timer writes what gathered in one multi-row INSERT. The loss window is bounded: an entry waits
 * at most FLUSH_INTERVAL_MS (or until FLUSH_AT entries gather) before its INSERT starts, and a
 * shutdown (SIGTERM, app.close) flushes what is left before the pool closes; only a process killed
 * outright loses what it held, at most one interval of reads.
 */
@Injectable()
export class AccessLogService implements OnModuleDestroy {
  private readonly logger = new Logger(AccessLogService.name);
  private pending: AccessRecord[] = [];
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly dataSource: DataSource) {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Notes one read by the request's caller; never waits for the database. */
  record(
    request: FastifyRequest,
    actor: Actor,
    action: AccessAction,
    detail: string,
    caseId: string | null,
  ): void {
    this.pending.push({
      at: new Date(),
      username: actor.username,
      role: actor.role,
      action,
      detail: detail.slice(0, 300),
      address: clientAddress(request),
      caseId,
    });
    if (this.pending.length > MAX_PENDING) {
      const dropped = this.pending.length - MAX_PENDING;
      this.pending.splice(0, dropped);
      this.logger.error(`The access log could not be written: ${dropped} entries dropped`);
    }
    if (this.pending.length >= FLUSH_AT) void this.flush().catch(() => undefined);
  }

  /** Writes every entry noted so far (one at a time: each batch extends the chain from its head). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.write(batch).then(
      () => undefined,
      (error: unknown) => {
        // Kept, in order, ahead of what came since: the next tick tries again.
        this.pending = [...batch, ...this.pending];
        this.logger.error(`Writing the access log failed: ${error instanceof Error ? error.message : error}`);
        throw error;
      },
    );
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }

  private async write(batch: AccessRecord[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // Processes share one chain: each batch takes the head under the lock and appends after it.
      await manager.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK]);
      const [head]: { seq: string; chain_hash: Buffer }[] = await manager.query(
        'SELECT seq::text, chain_hash FROM access_log ORDER BY access_log.seq DESC LIMIT 1',
      );
      let seq = head ? Number(head.seq) : 0;
      let previous: Buffer = head?.chain_hash ?? GENESIS;
      const columns: unknown[][] = [[], [], [], [], [], [], [], [], []];
      for (const entry of batch) {
        seq++;
        previous = sealEntry(previous, seq, entry);
        const values: unknown[] = [
          seq,
          entry.at.toISOString(),
          entry.username,
          entry.role,
          entry.action,
          entry.detail,
        ];
        values.push(entry.address, entry.caseId, previous);
        values.forEach((value, index) => columns[index].push(value));
      }
      await manager.query(
        `INSERT INTO access_log (seq, at, username, role, action, detail, address, case_id, chain_hash)
         SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::text[],
                              $6::text[], $7::text[], $8::text[], $9::bytea[])`,
        columns,
      );
    });
  }

  /** One case's entries, newest first (written ones: `flush` first to include this process's). */
  async forCase(caseId: string): Promise<Omit<AccessEntry, 'caseId'>[]> {
    const rows = await this.dataSource.query(
      `SELECT ${SELECTED} FROM access_log WHERE case_id = $1 ORDER BY seq DESC LIMIT ${MAX_ANSWER}`,
      [caseId],
    );
    return rows.map(({ caseId: _, ...entry }: AccessEntry) => entry);
  }

  /** Entries across cases, filtered, newest first; from/to are whole days of the server's time zone. */
  async search(filter: AccessLogFilter): Promise<AccessEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.username) add('lower(username) = lower(?)', filter.username);
    if (filter.action) add('action = ?', filter.action);
    if (filter.from) add('at >= ?::date', filter.from);
    if (filter.to) add(`at < ?::date + 1`, filter.to);
    return this.dataSource.query(
      `SELECT ${SELECTED} FROM access_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY seq DESC LIMIT ${MAX_ANSWER}`,
      params,
    );
  }
}

/** The newest this many entries answer a query: a screen's worth many times over, and a bounded CSV. */
const MAX_ANSWER = 10_000;

const SELECTED = `to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, username, role, action, detail, address, case_id AS "caseId"`;
