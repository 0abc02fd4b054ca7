import type { DataSource, QueryRunner } from 'typeorm';
import { appendStreams, withActualVersion } from './append.js';
import { readAllInOneDocument } from './batch-read.js';
import { appendMany } from './bulk-append.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoints.js';
import { keyAfter, readAll, readAllRowsExcept } from './commit-safe-read.js';
import {
  WrongExpectedVersionError,
  type Checkpoint,
  type EventCipher,
  type EventCodec,
  type EventMetadata,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
  type StreamEvents,
} from './event-types.js';
import { OwnCommits, ownRow, type OwnCommit } from './own-commits.js';
import { schemaVersionOf, toRecordedEvent } from './stored-rows.js';
import { readStream, readStreamsAfter } from './stream-read.js';
import { withTransaction } from './transactions.js';

export * from './event-types.js';
export { writeRows, type ReadModel, type ReadModelColumn, type ReadModelRows } from './read-model.js';
export { withTransaction, lockStream } from './transactions.js';

/**
 * How long a read of the whole log waits at most for this process's appends to answer: one blocked
 * on a lock (a writer of the same stream) must not hold the live stream back.
 */
export const OWN_ANSWER_WAIT_MS = 50;

/** When every one of `pending` has settled, or after OWN_ANSWER_WAIT_MS, whichever comes first. */
async function answered(pending: Promise<unknown>[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(pending),
    new Promise((resolve) => (timer = setTimeout(resolve, OWN_ANSWER_WAIT_MS)).unref()),
  ]);
  clearTimeout(timer);
}

/**
 * The append-only event log (table `events`, migrations/001_event_store.sql): the one door to it.
 * Each operation lives in a file of its own (see README.md); this class binds them to the app's
 * database and the domain's codec.
 *
 * A stream's version is the number of events in it; `expectedVersion` is the version the caller
 * based its decision on (0: the stream must not exist yet). When the stream has moved on, the
 * append fails with WrongExpectedVersionError and writes nothing. If that happens inside the
 * caller's transaction, PostgreSQL may have aborted that transaction: roll it back (withTransaction
 * does) before retrying.
 */
export class EventStore {
  /** This process's recent committed appends, for readAll's `ownFromMemory` (own-commits.ts). */
  readonly ownCommits = new OwnCommits();
  /** This store's appends on a statement of their own that have not answered yet (then kept). */
  private readonly answering = new Set<Promise<unknown>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly codec?: EventCodec,
    readonly cipher?: EventCipher,
  ) {}

  /** Throws WrongExpectedVersionError, with the stream's actual version, if the stream moved on. */
  async append(
    streamId: string,
    expectedVersion: number,
    events: NewEvent[],
    metadata: EventMetadata,
    queryRunner?: QueryRunner,
  ): Promise<RecordedEvent[]> {
    const [result] = await this.appendStreams([{ streamId, expectedVersion, events, metadata }], queryRunner);
    if (result instanceof WrongExpectedVersionError)
      throw await withActualVersion(queryRunner ?? this.dataSource, result);
    return result;
  }

  /** Several streams in one statement, each with its own version check and answer (append.ts). */
  appendStreams(
    appends: StreamAppend[],
    queryRunner?: QueryRunner,
  ): Promise<(RecordedEvent[] | WrongExpectedVersionError)[]> {
    // In the caller's transaction the append may still roll back: not kept. Nor while no reader
    // wants them (no live stream open): the process keeps no plaintext it has no use for.
    if (queryRunner || !this.ownCommits.wanted()) return this.appendStreamsAsStored(appends, queryRunner);
    // Without one the statement runs on its own: once it answers, it has committed.
    const kept = this.appendStreamsAsStored(appends).then((results) => {
      this.ownCommits.add(this.ownCommitsOf(appends, results));
      return results;
    });
    this.answering.add(kept);
    const done = () => void this.answering.delete(kept);
    kept.then(done, done);
    return kept;
  }

  /**
   * Runs `work` in a transaction (withTransaction) that appends `appends`' events, their keys made
   * or loaded before it opens and held until it ends. A key is made on a pooled connection of its
   * own (it must exist whatever becomes of the append), so inside the transaction it would wait
   * for a second connection while holding the first, and as many transactions as the pool has
   * connections would wait for each other for ever (test/case-creation-pool.e2e.ts,
   * test/restore-pool.e2e.ts). The case commands' transactions and the restore's open here.
   */
  async withTransactionFor<T>(
    appends: StreamEvents[],
    work: (queryRunner: QueryRunner) => Promise<T>,
  ): Promise<T> {
    const release = await this.cipher?.prepare(appends);
    try {
      return await withTransaction(this.dataSource, work);
    } finally {
      release?.();
    }
  }

  private async appendStreamsAsStored(
    appends: StreamAppend[],
    queryRunner?: QueryRunner,
  ): Promise<(RecordedEvent[] | WrongExpectedVersionError)[]> {
    if (!this.cipher) return appendStreams(queryRunner ?? this.dataSource, appends, this.codec);
    // A sealed event (a new object: the cipher changes no event it is given) is no longer the
    // JSON its caller made of it.
    const sealed = (await this.cipher.seal(appends)).map((append, i) => ({
      ...append,
      events: append.events.map((event, j) =>
        event.json === undefined || event === appends[i].events[j] ? event : { ...event, json: undefined },
      ),
    }));
    const results = await appendStreams(queryRunner ?? this.dataSource, sealed, this.codec);
    // The caller gets back what it appended, not the stored ciphertext.
    results.forEach((result, i) => {
      if (Array.isArray(result))
        result.forEach((event, index) => (event.data = appends[i].events[index].data));
    });
    return results;
  }

  /** The committed events of `appends` as stored, their data as JSON before sealing. */
  private ownCommitsOf(
    appends: StreamAppend[],
    results: (RecordedEvent[] | WrongExpectedVersionError)[],
  ): OwnCommit[] {
    const commits: OwnCommit[] = [];
    results.forEach((result, i) => {
      if (!Array.isArray(result)) return;
      const metadata = JSON.stringify(appends[i].metadata);
      result.forEach((event, index) => {
        const given = appends[i].events[index];
        commits.push({
          position: event.position,
          transactionId: event.transactionId,
          transaction: BigInt(event.transactionId),
          streamId: event.streamId,
          version: event.version,
          type: event.type,
          schemaVersion: schemaVersionOf(given, this.codec),
          // What appendChunks stores (sealed, with a cipher, after this plaintext was taken).
          data: given.json ?? JSON.stringify(given.data ?? null),
          metadata,
          recordedAt: event.recordedAt,
        });
      });
    });
    return commits;
  }

  /**
   * The bulk import path: many streams in one transaction, one stale stream rejects all
   * (bulk-append.ts). In the caller's transaction, opened by withTransactionFor for these streams.
   */
  appendMany(
    batch: { streamId: string; expectedVersion: number; events: NewEvent[] }[],
    metadata: EventMetadata,
    queryRunner?: QueryRunner,
  ): Promise<number> {
    const cipher = this.cipher;
    // Sealed part by part, each part while the statement of the one before runs (bulk-append.ts).
    const seal = cipher && ((appends: StreamAppend[]) => cipher.seal(appends));
    const write = (runner: QueryRunner) =>
      appendMany(this.dataSource, batch, metadata, this.codec, runner, seal);
    return queryRunner ? write(queryRunner) : this.withTransactionFor(batch, write);
  }

  readStream(streamId: string, queryRunner?: QueryRunner): Promise<RecordedEvent[]> {
    return this.opened(readStream(queryRunner ?? this.dataSource, streamId, this.readCodec), queryRunner);
  }

  /** Many streams after the versions given, in one query (stream-read.ts). */
  readStreamsAfter(
    streams: { streamId: string; version: number }[],
    queryRunner?: QueryRunner,
  ): Promise<RecordedEvent[]> {
    return this.opened(
      readStreamsAfter(queryRunner ?? this.dataSource, streams, this.readCodec),
      queryRunner,
    );
  }

  /**
   * The whole log after `after`, in commit-safe order (commit-safe-read.ts). With `ownFromMemory`,
   * the events this process committed recently (ownCommits) are not read back: the query returns
   * their keys without data and metadata, which come from memory, as a read of the row gives them.
   * That is for the process's one reader of the live log, which reads forward: what lies at or
   * before `after` is forgotten.
   */
  async readAll(
    after: Checkpoint | null,
    limit: number,
    options?: { ownFromMemory?: boolean },
  ): Promise<RecordedEvent[]> {
    // The NOTIFY of an own commit often comes before the append's answer: a read it wakes waits
    // for the appends being answered, so their events come from memory rather than the table.
    if (options?.ownFromMemory && this.answering.size) await answered([...this.answering]);
    if (options?.ownFromMemory) this.ownCommits.forgetThrough(after);
    const held = options?.ownFromMemory ? this.ownCommits.after(after, limit) : undefined;
    if (!held?.size) return this.opened(readAll(this.dataSource, after, limit, this.readCodec));
    const rows = await readAllRowsExcept(this.dataSource, after, limit, [...held.values()]);
    const events: RecordedEvent[] = new Array(rows.length);
    const read: RecordedEvent[] = [];
    rows.forEach((row, index) => {
      const own = held.get(row.position);
      if (own && own.transactionId === row.transaction_id) {
        events[index] = toRecordedEvent(ownRow(own), this.codec);
      } else {
        events[index] = toRecordedEvent(row, this.readCodec);
        read.push(events[index]);
      }
    });
    await this.opened(read);
    return events;
  }

  /** Forgets this process's recent events of a stream (an erased case), so they are read instead. */
  forgetOwnCommits(streamId: string): void {
    this.ownCommits.forgetStream(streamId);
  }

  /** Where a batch of `count` events after `after` would end (commit-safe-read.ts). */
  keyAfter(after: Checkpoint | null, count: number): Promise<Checkpoint | null> {
    return keyAfter(this.dataSource, after, count);
  }

  /** readAll as one JSON document per batch, for bulk readers (batch-read.ts). */
  async readAllInOneDocument(
    after: Checkpoint | null,
    limit: number,
  ): Promise<{ events: RecordedEvent[]; more: boolean }> {
    const batch = await readAllInOneDocument(this.dataSource, after, limit, this.readCodec);
    return { ...batch, events: await this.opened(batch.events) };
  }

  /**
   * With a cipher, rows are read as stored (no codec), opened, then upcast: upcasters see the
   * plaintext, as they did when the data was written.
   */
  private get readCodec(): EventCodec | undefined {
    return this.cipher ? undefined : this.codec;
  }

  private async opened(
    read: Promise<RecordedEvent[]> | RecordedEvent[],
    queryRunner?: QueryRunner,
  ): Promise<RecordedEvent[]> {
    const events = await read;
    if (!this.cipher) return events;
    await this.cipher.open(events, queryRunner);
    const codec = this.codec;
    if (codec)
      for (const event of events) {
        const current = codec.schemaVersionOf(event.type);
        if (event.schemaVersion < current) {
          event.data = codec.upcast(event.type, event.schemaVersion, event.data);
          event.schemaVersion = current;
        }
      }
    return events;
  }

  loadCheckpoint(name: string, queryRunner?: QueryRunner): Promise<Checkpoint | null> {
    return loadCheckpoint(queryRunner ?? this.dataSource, name);
  }

  /** Pass the queryRunner of the projection's own writes, so both commit or neither does. */
  saveCheckpoint(name: string, checkpoint: Checkpoint, queryRunner?: QueryRunner): Promise<void> {
    return saveCheckpoint(queryRunner ?? this.dataSource, name, checkpoint);
  }
}
