import { performance } from 'node:perf_hooks';
import type { DataSource, QueryRunner } from 'typeorm';
import { rebuildInvoiceView } from '../billing/invoice-view.rebuild.js';
import {
  EventStore,
  withTransaction,
  type Checkpoint,
  type RecordedEvent,
} from '../event-store/event-store.js';
import { sameCheckpoint } from '../event-store/checkpoints.js';
import { ReadModelReplay } from './read-model-replay.js';
import { type PendingRows } from './read-model-rows.js';

import {
  type RebuildProgress,
  IDLE_PROGRESS,
  type RebuildOptions,
  RebuildAlreadyRunningError,
} from './rebuild-progress.js';
import {
  type IndexDefinition,
  shape,
  indexDefinitions,
  restoreIndexNames,
  triggerDefinitions,
  isLockConflict,
  sleep,
  READ_MODEL_TABLES,
  SHADOW,
  shadowOf,
  analyzeShadowTables,
  lz4Available,
} from './shadow-tables.js';

export const REBUILD_CHECKPOINT = 'rebuild';

/** Arbitrary but fixed: one rebuild at a time across every process on the database. */
const REBUILD_LOCK_ID = '7240913350164081002';

const DEFAULT_BATCH = 10_000;

/**
 * How often the replayed rows are written with a checkpoint: a crash loses at most this much
 * work, and rows that change often are written once per interval instead of once per batch.
 */
const DEFAULT_FLUSH_INTERVAL_MS = 3000;

/**
 * Changed rows held in memory before a write regardless of the interval. Each write carries the
 * whole document of every case changed since the last one, so the fewer the writes, the fewer
 * times a case under way is serialised and parsed again (docs/performance.md, the rebuild).
 */
const MAX_PENDING_ROWS = 30_000;

/**
 * Above this many states in memory, the written ones are forgotten (the shadow tables hold them)
 * and loaded back when their streams go on: memory stays bounded however large the lab.
 */
const DEFAULT_CACHE_LIMIT = 25_000;

/**
 * The swap's lock waits: below PostgreSQL's deadlock_timeout (1 s), so that in a lock cycle with
 * a writer (none is known: see the lock order in swap) the swap gives up first and tries again.
 */
const SWAP_LOCK_TIMEOUT = '800ms';

const SWAP_ATTEMPTS = 20;

/**
 * Rebuilds every read model from the event log, while the API keeps serving from the live tables:
 *
 * 1. Replays the log (commit-safe order, in batches) into shadow tables created LIKE the live
 *    ones, folding with the domain's evolve functions in memory and writing the changed rows in
 *    bulk. The checkpoint 'rebuild' is saved in the transaction of each bulk write, so a run that
 *    dies resumes where the last write stopped: shadow tables and checkpoint present = resume.
 * 2. Swaps in one transaction: LOCK events IN SHARE MODE waits for every command transaction
 *    that has appended (each writes its inline projection in the same transaction) and holds new
 *    ones back; under that lock every event is committed, so the events after the checkpoint are
 *    caught up without the snapshot filter; then live tables become *_old, shadows become live,
 *    the old ones are dropped, and the commit lets the held-back commands write into the new
 *    tables. Index names and triggers of the live tables carry over.
 */
export class ProjectionRebuilder {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
  ) {}

  async run(options: RebuildOptions = {}): Promise<RebuildProgress> {
    // A session-level lock on a connection of its own: released if this process dies.
    const lock = this.dataSource.createQueryRunner();
    await lock.connect();
    try {
      if (options.wait) {
        await lock.query('SELECT pg_advisory_lock($1::bigint)', [REBUILD_LOCK_ID]);
      } else {
        const [{ locked }] = await lock.query('SELECT pg_try_advisory_lock($1::bigint) AS locked', [
          REBUILD_LOCK_ID,
        ]);
        if (!locked) throw new RebuildAlreadyRunningError();
      }
      try {
        return await this.rebuild(options);
      } finally {
        await lock.query('SELECT pg_advisory_unlock($1::bigint)', [REBUILD_LOCK_ID]).catch(() => undefined);
      }
    } finally {
      await lock.release();
    }
  }

  private async rebuild(options: RebuildOptions): Promise<RebuildProgress> {
    const startedMs = Date.now();
    const loop = performance.eventLoopUtilization();
    await this.analyzeEventsIfStale();
    const { replay, checkpoint, resumed } = await this.prepare();
    const [{ total }] = await this.dataSource.query('SELECT count(*)::int AS total FROM events');
    const resumedFrom = checkpoint ? await this.countUpTo(checkpoint) : 0;
    const progress: RebuildProgress = {
      ...IDLE_PROGRESS,
      state: 'running',
      eventsDone: resumedFrom,
      eventsTotal: Math.max(total, resumedFrom),
      resumedFrom: resumed ? resumedFrom : 0,
      startedAt: new Date(startedMs).toISOString(),
    };
    const run: Run = {
      replay,
      options,
      lz4: await lz4Available(this.dataSource),
      writes: 0,
      lastWriteMs: 0,
      report: () => {
        const seconds = (Date.now() - startedMs) / 1000;
        progress.eventsPerSecond =
          seconds > 0 ? Math.round((progress.eventsDone - resumedFrom) / seconds) : 0;
        progress.eventsTotal = Math.max(progress.eventsTotal, progress.eventsDone);
        options.onProgress?.({ ...progress });
      },
      progress,
    };
    run.report();

    const after = await this.replayLog(run, checkpoint);
    // Fresh tables have no statistics yet; the swap makes them the live ones.
    await analyzeShadowTables(this.dataSource);
    for (let attempt = 1; ; attempt++) {
      // What commit-safe reads could not reach yet (a long transaction anywhere holds them back)
      // is caught up stream by stream, so that little is left for the swap's lock.
      await this.catchUp(run, after);
      try {
        const swapStarted = Date.now();
        progress.eventsDone += await this.swap(run, after);
        progress.swapMs = Date.now() - swapStarted;
        break;
      } catch (error) {
        if (!isLockConflict(error) || attempt >= SWAP_ATTEMPTS) throw error;
        // The swap's writes rolled back; the states in memory went further: reload them.
        await sleep(Math.min(1000, 50 * attempt));
        run.replay = new ReadModelReplay(this.dataSource, this.store, SHADOW, false);
      }
    }
    // Billing's read model is folded from the invoice streams alone (billing/invoice-view.rebuild.ts).
    await rebuildInvoiceView(this.dataSource, this.store);
    progress.state = 'done';
    progress.finishedAt = new Date().toISOString();
    progress.idleMs = Math.round(performance.eventLoopUtilization(loop).idle);
    run.report();
    return { ...progress };
  }

  /** Resumes a crashed rebuild whose shadow tables and checkpoint survived, or starts afresh. */
  private async prepare(): Promise<{
    replay: ReadModelReplay;
    checkpoint: Checkpoint | null;
    resumed: boolean;
  }> {
    const checkpoint = await this.store.loadCheckpoint(REBUILD_CHECKPOINT);
    let resumable = checkpoint !== null;
    for (const table of READ_MODEL_TABLES) {
      // A migration since the crash may have changed a live table: its old copy cannot replace it.
      if (resumable)
        resumable = (await shape(this.dataSource, shadowOf(table))) === (await shape(this.dataSource, table));
    }
    if (resumable) {
      // States are looked up in the shadow tables from now on.
      await analyzeShadowTables(this.dataSource);
      return {
        replay: new ReadModelReplay(this.dataSource, this.store, SHADOW, false),
        checkpoint,
        resumed: true,
      };
    }
    await withTransaction(this.dataSource, async (runner) => {
      for (const table of READ_MODEL_TABLES) {
        await runner.query(`DROP TABLE IF EXISTS ${shadowOf(table)}`);
        await runner.query(`CREATE TABLE ${shadowOf(table)} (LIKE ${table} INCLUDING ALL)`);
      }
      await runner.query('DELETE FROM projection_checkpoints WHERE name = $1', [REBUILD_CHECKPOINT]);
    });
    return {
      replay: new ReadModelReplay(this.dataSource, this.store, SHADOW, true),
      checkpoint: null,
      resumed: false,
    };
  }

  /**
   * Replays the log from `after` until a read comes back short (the end, as far as commit-safe
   * reads reach). Four things overlap: PostgreSQL reads the next two batches and writes the rows
   * taken at the last checkpoint while this process folds the current batch.
   */
  private async replayLog(run: Run, after: Checkpoint | null): Promise<Checkpoint | null> {
    const batchSize = run.options.batchSize ?? DEFAULT_BATCH;
    const interval = run.options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    let saved = after;
    let savedAt = Date.now();
    let writing: Promise<void> | undefined;
    const checkpointAt = async (checkpoint: Checkpoint) => {
      await writing; // one write at a time, in order; its failure stops the rebuild here
      if (run.replay.cachedStates > (run.options.cacheLimit ?? DEFAULT_CACHE_LIMIT)) {
        run.replay.dropCache();
        await analyzeShadowTables(this.dataSource);
      }
      writing = this.write(run, run.replay.takePending(), checkpoint);
      writing.catch(() => undefined); // handled where it is awaited
      saved = checkpoint;
      savedAt = Date.now();
    };
    const start = (from: Checkpoint | null): LogRead => {
      const batch = this.store.readAllInOneDocument(from, batchSize);
      batch.catch(() => undefined); // handled where it is awaited, if it is used
      return { from, batch };
    };
    // The read after a read under way starts from where that one should end (the key index says
    // where), so that two reads run while this process folds; it is used only if the read before
    // really ends there (a batch cut short by size, or the end of the log, does not).
    const readAfter = (read: LogRead): Promise<LogRead | null> => {
      const next = this.store.keyAfter(read.from, batchSize).then((end) => end && start(end));
      next.catch(() => undefined); // handled where it is awaited
      return next;
    };
    let read: LogRead | null = start(after);
    let ahead = readAfter(read);
    try {
      while (read) {
        const batch: { events: RecordedEvent[]; more: boolean } = await read.batch;
        const events: RecordedEvent[] = batch.events;
        if (!events.length) break;
        const last: RecordedEvent = events[events.length - 1];
        after = { transactionId: last.transactionId, position: last.position };
        read = null;
        if (batch.more) {
          const guessed = await ahead;
          read = guessed && sameCheckpoint(guessed.from, after) ? guessed : start(after);
          ahead = readAfter(read);
        }
        await run.replay.applyLogEvents(events);
        run.progress.eventsDone += events.length;
        // Writing takes at most about a fifth of the time, however large the rows are.
        const wait = interval > 0 ? Math.max(interval, 4 * run.lastWriteMs) : 0;
        if (Date.now() - savedAt >= wait || run.replay.pendingRows >= MAX_PENDING_ROWS)
          await checkpointAt(after);
        run.report();
      }
      if (saved !== after) await checkpointAt(after!);
      await writing;
      return after;
    } finally {
      // Never leave a write running behind a failed rebuild (its lock is released next), nor a read.
      await writing?.catch(() => undefined);
      await ahead.then((guessed) => guessed?.batch).catch(() => undefined);
    }
  }

  /** One bulk write of taken rows, with the checkpoint in the same transaction. */
  private async write(run: Run, pending: PendingRows, checkpoint: Checkpoint): Promise<void> {
    const started = Date.now();
    await withTransaction(this.dataSource, async (runner) => {
      // lz4 compresses the large case documents faster than the default pglz (docs/performance.md).
      if (run.lz4) await runner.query("SET LOCAL default_toast_compression = 'lz4'");
      await run.replay.write(runner, pending);
      await this.store.saveCheckpoint(REBUILD_CHECKPOINT, checkpoint, runner);
    });
    run.lastWriteMs = Date.now() - started;
    run.writes++;
    if (run.options.crashAfterWrites !== undefined && run.writes >= run.options.crashAfterWrites) {
      throw new Error(`Rebuild stopped by its test hook after ${run.writes} bulk write(s).`);
    }
  }

  /**
   * Applies the events committed after the checkpoint, stream by stream, and writes the rows
   * without moving the checkpoint: a resume replays from it and skips the versions already in.
   */
  private async catchUp(run: Run, after: Checkpoint | null): Promise<void> {
    await run.replay.applyStreams(await this.streamsAfter(this.dataSource, after));
    if (!run.replay.pendingRows) return;
    await withTransaction(this.dataSource, async (runner) => {
      if (run.lz4) await runner.query("SET LOCAL default_toast_compression = 'lz4'");
      await run.replay.flush(runner);
    });
  }

  private async streamsAfter(db: DataSource | QueryRunner, after: Checkpoint | null): Promise<string[]> {
    const rows: { stream_id: string }[] = await db.query(
      `SELECT DISTINCT stream_id FROM events WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)`,
      [after?.transactionId ?? '0', after?.position ?? '0'],
    );
    return rows.map((row) => row.stream_id);
  }

  /**
   * Catches up under the events lock and puts the shadow tables in place of the live ones.
   * Answers how many events the catch-up covered.
   */
  private async swap(run: Run, after: Checkpoint | null): Promise<number> {
    const { replay } = run;
    return withTransaction(this.dataSource, async (runner) => {
      await runner.query(`SET LOCAL lock_timeout = '${SWAP_LOCK_TIMEOUT}'`);
      if (run.lz4) await runner.query("SET LOCAL default_toast_compression = 'lz4'");
      // The order commands take these locks in: a new case reserves its id in case_ids before it
      // appends, and its projection writes case_view after; a restore locks case_ids first too.
      await runner.query('LOCK TABLE case_ids IN EXCLUSIVE MODE');
      // LOCK events IN SHARE MODE, as the schema's owner: the app's role may not (migration 047).
      await runner.query('SELECT lock_events_for_swap()');
      const streams: { stream_id: string; events: number }[] = await runner.query(
        `SELECT stream_id, count(*)::int AS events FROM events
          WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint) GROUP BY stream_id`,
        [after?.transactionId ?? '0', after?.position ?? '0'],
      );
      await replay.applyStreams(
        streams.map((row) => row.stream_id),
        runner,
      );
      await replay.flush(runner);

      const indexes = new Map<string, IndexDefinition[]>();
      const triggers = new Map<string, string[]>();
      for (const table of READ_MODEL_TABLES) {
        indexes.set(table, await indexDefinitions(runner, table));
        triggers.set(table, await triggerDefinitions(runner, table));
      }
      const tables = READ_MODEL_TABLES.flatMap((table) => [table, shadowOf(table)]);
      await runner.query(`LOCK TABLE ${tables.join(', ')} IN ACCESS EXCLUSIVE MODE`);
      for (const table of READ_MODEL_TABLES) {
        await runner.query(`ALTER TABLE ${table} RENAME TO ${table}_old`);
        await runner.query(`ALTER TABLE ${shadowOf(table)} RENAME TO ${table}`);
        await runner.query(`DROP TABLE ${table}_old`);
        await restoreIndexNames(runner, table, indexes.get(table)!);
        for (const definition of triggers.get(table)!) await runner.query(definition);
      }
      await runner.query('DELETE FROM projection_checkpoints WHERE name = $1', [REBUILD_CHECKPOINT]);
      return streams.reduce((sum, row) => sum + row.events, 0);
    });
  }

  /**
   * Without statistics (a log just loaded or restored that autovacuum has not analyzed yet) the
   * planner reads each batch of readAll by sorting the whole rest of the log: quadratic. Cheap
   * to prevent: ANALYZE samples a fixed number of rows.
   */
  private async analyzeEventsIfStale(): Promise<void> {
    const [stats] = await this.dataSource.query(
      `SELECT n_live_tup::float AS live, n_mod_since_analyze::float AS changed,
              coalesce(last_analyze, last_autoanalyze) IS NULL AS never
         FROM pg_stat_user_tables WHERE relid = to_regclass('events')`,
    );
    if (stats && (stats.never || stats.changed > 1000 + stats.live / 5)) {
      await this.dataSource.query('ANALYZE events').catch(() => undefined); // an optimisation only
    }
  }

  private async countUpTo(checkpoint: Checkpoint): Promise<number> {
    const [{ n }] = await this.dataSource.query(
      'SELECT count(*)::int AS n FROM events WHERE (transaction_id, global_position) <= ($1::xid8, $2::bigint)',
      [checkpoint.transactionId, checkpoint.position],
    );
    return n;
  }
}

/** A batch of the log being read, from the key `from` on. */
interface LogRead {
  from: Checkpoint | null;
  batch: Promise<{ events: RecordedEvent[]; more: boolean }>;
}

/** One rebuild under way. */
interface Run {
  replay: ReadModelReplay;
  readonly options: RebuildOptions;
  readonly progress: RebuildProgress;
  readonly report: () => void;
  /** Whether the server compresses with lz4 (PostgreSQL 14+ built with it). */
  readonly lz4: boolean;
  writes: number;
  lastWriteMs: number;
}
