import { DataSource, QueryRunner } from 'typeorm';

export interface NewEvent {
  type: string;
  data: unknown;
  schemaVersion?: number;
}

export interface EventMetadata {
  actor: { username: string; role: string } | null;
  correlationId: string;
  causationId?: string;
}

export interface RecordedEvent {
  /** global_position; bigint, hence a string. */
  position: string;
  /** The xid8 of the writing transaction; with `position` it orders the log for readers. */
  transactionId: string;
  streamId: string;
  version: number;
  type: string;
  schemaVersion: number;
  // The shape depends on `type` and `schemaVersion`; upcasters and handlers narrow it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
  metadata: EventMetadata;
  /** ISO 8601. */
  recordedAt: string;
}

/**
 * How event data changes shape over time (libs/domain's upcasters). Without a codec every event is
 * written as schema version 1 and read back exactly as stored.
 */
export interface EventCodec {
  /** The schema version new events of this type are written with. */
  schemaVersionOf(type: string): number;
  /** Turns data stored under an older schema version into today's shape. */
  upcast(type: string, schemaVersion: number, data: unknown): unknown;
}

/** Where a reader of the whole log stopped: the last event it has seen. */
export interface Checkpoint {
  transactionId: string;
  position: string;
}

/** The stream moved on since the caller read it: reload, decide again, retry. */
export class WrongExpectedVersionError extends Error {
  override name = 'WrongExpectedVersionError';

  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    readonly actualVersion?: number,
  ) {
    super(
      `Stream ${streamId} was expected at version ${expectedVersion}` +
        (actualVersion === undefined
          ? ', but another writer got there first'
          : `, but is at ${actualVersion}`),
    );
  }
}

/** One stream's part of an appendStreams statement. */
export interface StreamAppend {
  streamId: string;
  /** The stream version the events were decided on (0: the stream must not exist yet). */
  expectedVersion: number;
  events: NewEvent[];
  metadata: EventMetadata;
  /** When the events happened (ISO 8601); by default the transaction's start, now(). */
  recordedAt?: string;
  /**
   * A write that commits with the events, in the same statement; it must do nothing unless this
   * stream's events were appended (e.g. INSERT … SELECT … WHERE ${sql.appended}).
   */
  alongside?: (sql: AlongsideSql) => string;
}

export interface AlongsideSql {
  /** Binds a value and answers its placeholder ($n). */
  param: (value: unknown) => string;
  /** SQL: the global position of the last appended event. */
  lastPosition: string;
  /** SQL condition: true when the events were appended. */
  appended: string;
}

/** Read by the events_appended trigger (migrations/007_commands_notify.sql). */
const QUIET_SETTING = 'alignerflow.notify_by_caller';
export const EVENTS_APPENDED_CHANNEL = 'events_appended';

/**
 * Data per readAllInOneDocument batch, as stored (jsonb, maybe compressed): its JSON text is a few
 * times larger, far below V8's longest string.
 */
const MAX_DOCUMENT_STORED_BYTES = 32 * 1024 * 1024;

/**
 * Events per appendStreams statement: 4 parameters each, with a stream's own 4 and a case_view row's
 * dozen, keeps a statement far below PostgreSQL's 65 535.
 */
const CHUNK_ROWS = 1000;
/** appendMany's chunks: events, and characters of JSON (a few MB per statement). */
const APPEND_MANY_ROWS = 10_000;
const APPEND_MANY_CHARS = 4 * 1024 * 1024;
const STREAM_VERSION_KEY = 'events_stream_version_key';

// ORDER BY must name events.transaction_id: a bare transaction_id would mean this text alias,
// which sorts '10' before '9'. recorded_at comes formatted as toISOString() would: parsing
// timestamps into Dates costs a third of a replay's time.
const COLUMNS = `global_position::text AS position, transaction_id::text AS transaction_id, stream_id,
  stream_version, type, schema_version, data, metadata,
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at`;

interface EventRow {
  position: string;
  transaction_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: string;
}

/** An event as readAllInOneDocument fetches it: EventRow's values, in that order. */
type BatchRow = [string, string, string, number, string, number, unknown, EventMetadata, string];

/**
 * The append-only event log (table `events`, migrations/001_event_store.sql).
 *
 * A stream's version is the number of events in it; `expectedVersion` is the version the caller
 * based its decision on (0: the stream must not exist yet). When the stream has moved on, the
 * append fails with WrongExpectedVersionError and writes nothing. If that happens inside the
 * caller's transaction, PostgreSQL may have aborted that transaction: roll it back (withTransaction
 * does) before retrying.
 */
export class EventStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly codec?: EventCodec,
  ) {}

  async append(
    streamId: string,
    expectedVersion: number,
    events: NewEvent[],
    metadata: EventMetadata,
    queryRunner?: QueryRunner,
  ): Promise<RecordedEvent[]> {
    const [result] = await this.appendStreams([{ streamId, expectedVersion, events, metadata }], queryRunner);
    if (!(result instanceof WrongExpectedVersionError)) return result;
    const actual = await this.streamVersions([streamId], queryRunner);
    throw new WrongExpectedVersionError(streamId, expectedVersion, actual.get(streamId) ?? 0);
  }

  /**
   * Appends to several streams in one statement (hence atomic without a transaction of our own),
   * each with its own version check and its own answer: its events, or a WrongExpectedVersionError
   * that writes nothing of it and leaves the other streams' appends alone.
   *
   * A stream's first event is checked twice: against the stream's version as the statement sees
   * it, and by the unique (stream_id, stream_version) key against a writer racing it, whose
   * commit makes ours insert nothing (ON CONFLICT DO NOTHING: the statement goes on for the other
   * streams). Its further events are inserted only if its first was: once our version n+1 is in,
   * no one else can hold n+2. Rows go in stream order, so two such statements never wait on each
   * other in a cycle. The events come first in the statement, so it locks `events` before any
   * table of `alongside`, in the order a projection rebuild's swap locks them.
   *
   * wakeListeners 'caller': the events_appended trigger stays quiet, because the caller wakes the
   * listeners itself after commit (ListenerWakeups). A NOTIFY makes PostgreSQL serialise commits on
   * one cluster-wide lock held through the WAL flush: one per command caps the whole server at a
   * few hundred commits per second.
   */
  async appendStreams(
    appends: StreamAppend[],
    queryRunner?: QueryRunner,
    wakeListeners: 'trigger' | 'caller' = 'trigger',
  ): Promise<(RecordedEvent[] | WrongExpectedVersionError)[]> {
    const total = appends.reduce((sum, { events }) => sum + events.length, 0);
    if (appends.some(({ events }) => events.length === 0) || total > CHUNK_ROWS) {
      throw new RangeError(`append takes 1 to ${CHUNK_ROWS} events per stream and in all, got ${total}`);
    }
    // Two appends to one stream would both claim the same versions.
    if (new Set(appends.map(({ streamId }) => streamId)).size < appends.length) {
      throw new Error('appendStreams: a stream appears more than once');
    }
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const rows: string[] = [];
    const alongside: string[] = [];
    for (const { streamId, expectedVersion, events, metadata, recordedAt, alongside: write } of appends) {
      assertVersion(expectedVersion);
      const [stream, expected] = [`${param(streamId)}::text`, `${param(expectedVersion)}::int`];
      const shared = `${param(JSON.stringify(metadata))}::jsonb, ${param(recordedAt ?? null)}::timestamptz`;
      events.forEach((event, index) =>
        rows.push(
          `(${stream}, ${expected}, ${param(expectedVersion + index + 1)}::int, ${param(event.type)}::text, ` +
            `${param(this.schemaVersion(event))}::int, ${param(toJson(event.data))}::jsonb, ${shared})`,
        ),
      );
      const mine = `FROM appended WHERE stream_id = ${stream}`;
      const sql = write?.({
        param,
        lastPosition: `(SELECT max(global_position) ${mine})`,
        appended: `EXISTS (SELECT ${mine})`,
      });
      if (sql) alongside.push(`, alongside${alongside.length} AS (${sql})`);
    }
    const quiet = wakeListeners === 'caller';
    const insert = `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
      SELECT stream_id, version, type, schema_version, data, metadata, coalesce(recorded_at, now())`;
    const sql = `
      WITH ${quiet ? `quiet AS (SELECT set_config('${QUIET_SETTING}', 'on', true)),` : ''}
      input (stream_id, expected, version, type, schema_version, data, metadata, recorded_at) AS (
        VALUES ${rows.join(', ')}),
      firsts AS (${insert} FROM input${quiet ? ', quiet' : ''}
         WHERE version = expected + 1
           AND (SELECT coalesce(max(stream_version), 0) FROM events e WHERE e.stream_id = input.stream_id) = expected
         ORDER BY stream_id
        ON CONFLICT ON CONSTRAINT ${STREAM_VERSION_KEY} DO NOTHING
        RETURNING *),
      rest AS (${insert} FROM input
         WHERE version > expected + 1 AND stream_id IN (SELECT stream_id FROM firsts)
         ORDER BY stream_id, version
        RETURNING *),
      appended AS (SELECT * FROM firsts UNION ALL SELECT * FROM rest)${alongside.join('')}
      SELECT ${COLUMNS} FROM appended ORDER BY stream_id, stream_version`;
    const inserted: EventRow[] = await (queryRunner ?? this.dataSource).query(sql, params);
    const byStream = new Map<string, RecordedEvent[]>();
    for (const row of inserted) {
      const events = byStream.get(row.stream_id);
      if (events) events.push(this.toRecordedEvent(row));
      else byStream.set(row.stream_id, [this.toRecordedEvent(row)]);
    }
    return appends.map(
      ({ streamId, expectedVersion }) =>
        byStream.get(streamId) ?? new WrongExpectedVersionError(streamId, expectedVersion),
    );
  }

  async readStream(streamId: string, queryRunner?: QueryRunner): Promise<RecordedEvent[]> {
    const rows: EventRow[] = await (queryRunner ?? this.dataSource).query(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_version`,
      [streamId],
    );
    return rows.map((row) => this.toRecordedEvent(row));
  }

  /**
   * The next events of the whole log after `after` (null: from the start), in commit-safe order.
   *
   * global_position alone is unsafe: a transaction can take position 10, commit after one that
   * took 11, and a reader that already moved past 11 would never see 10. So only events of
   * transactions older than every transaction still running (pg_snapshot_xmin) are returned,
   * ordered by (transaction_id, global_position); anything newer is returned by a later call.
   * A long-running transaction anywhere on the server therefore delays readers; it never makes
   * them skip. Must not run inside a long transaction of the caller, hence no queryRunner.
   */
  async readAll(after: Checkpoint | null, limit: number): Promise<RecordedEvent[]> {
    if (!Number.isInteger(limit) || limit <= 0)
      throw new RangeError(`limit must be a positive integer, got ${limit}`);
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
        ORDER BY events.transaction_id, events.global_position
        LIMIT $3`,
      [after?.transactionId ?? '0', after?.position ?? '0', limit],
    );
    return rows.map((row) => this.toRecordedEvent(row));
  }

  /**
   * The committed events of many streams after the versions given, stream by stream in version
   * order, in one query (a projection rebuild's catch-up). No snapshot filter is needed: the
   * committed events of a stream are always a gap-free prefix of it, as each append waits for the
   * version before it.
   */
  async readStreamsAfter(
    streams: { streamId: string; version: number }[],
    queryRunner?: QueryRunner,
  ): Promise<RecordedEvent[]> {
    if (!streams.length) return [];
    const rows: EventRow[] = await (queryRunner ?? this.dataSource).query(
      `SELECT ${COLUMNS}
         FROM (SELECT e.* FROM unnest($1::text[], $2::int[]) AS k(stream_id, version)
                 JOIN events e ON e.stream_id = k.stream_id AND e.stream_version > k.version) AS events
        ORDER BY stream_id, stream_version`,
      [streams.map((stream) => stream.streamId), streams.map((stream) => stream.version)],
    );
    return rows.map((row) => this.toRecordedEvent(row));
  }

  /**
   * readAll for bulk readers (the projection rebuild): the same events in the same commit-safe
   * order, fetched as one JSON document per batch. node-pg parses a result row by row and field by
   * field, at three times the CPU of one JSON.parse of the whole batch. PostgreSQL writes the
   * document by concatenation, at half the CPU of json_agg/json_build_array (which look up how
   * to convert every argument on every row); jsonb columns print as JSON already, strings and
   * times are written by to_json (times always in ISO 8601, whatever the DateStyle; cheaper than
   * to_char here, and than toISOString on the other side).
   *
   * A batch may hold fewer than `limit` events before the end of the log: it stops once the data
   * it holds takes MAX_DOCUMENT_STORED_BYTES as stored (at least one event), so that a batch of
   * large documents (a restore's whole cases) stays far below the longest string V8 can make
   * (512 MB). `more`: the batch stopped at a limit, by count or by size, so more may follow.
   */
  async readAllInOneDocument(
    after: Checkpoint | null,
    limit: number,
  ): Promise<{ events: RecordedEvent[]; more: boolean }> {
    if (!Number.isInteger(limit) || limit <= 0)
      throw new RangeError(`limit must be a positive integer, got ${limit}`);
    const [{ batch, read, kept }]: { batch: string | null; read: number; kept: number }[] =
      await this.dataSource.query(
        `SELECT '[' || string_agg('["' || global_position || '","' || transaction_id || '",' || to_json(stream_id)
                  || ',' || stream_version || ',' || to_json(type) || ',' || schema_version || ',' || data
                  || ',' || metadata || ',' || to_json(recorded_at AT TIME ZONE 'UTC') || ']', ',')
                  FILTER (WHERE stored_before < $4) || ']' AS batch,
                count(*)::int AS read, count(*) FILTER (WHERE stored_before < $4)::int AS kept
           FROM (SELECT *, sum(pg_column_size(data)) OVER (ORDER BY transaction_id, global_position)
                           - pg_column_size(data) AS stored_before
                   FROM (SELECT * FROM events
                          WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
                            AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
                          ORDER BY events.transaction_id, events.global_position
                          LIMIT $3) AS first) AS e`,
        [after?.transactionId ?? '0', after?.position ?? '0', limit, MAX_DOCUMENT_STORED_BYTES],
      );
    const more = read === limit || kept < read;
    if (batch === null) return { events: [], more: false };
    const rows: BatchRow[] = JSON.parse(batch);
    let previous = after;
    const events = rows.map(
      ([position, transactionId, streamId, version, type, storedVersion, data, metadata, at]) => {
        // string_agg takes the rows in the subquery's order (PostgreSQL keeps it, without promising
        // to); checked here rather than sorted again in the database.
        if (previous && !isAfter({ transactionId, position }, previous))
          throw new Error(`readAllInOneDocument: events out of order at position ${position}`);
        previous = { transactionId, position };
        const schemaVersion = Math.max(this.codec?.schemaVersionOf(type) ?? storedVersion, storedVersion);
        return {
          position,
          transactionId,
          streamId,
          version,
          type,
          schemaVersion,
          data: schemaVersion > storedVersion ? this.codec!.upcast(type, storedVersion, data) : data,
          metadata,
          recordedAt: isoFromJson(at),
        };
      },
    );
    return { events, more };
  }

  /**
   * Where a readAllInOneDocument batch of `count` events from `after` would end, found without
   * reading the events (the key index alone): the key of the count-th commit-safe event after
   * `after`, or null when fewer follow. Lets a bulk reader start the read after a batch while that
   * batch is still being read; the start is only a guess until the batch ends at that very key.
   */
  async keyAfter(after: Checkpoint | null, count: number): Promise<Checkpoint | null> {
    const [row]: { transaction_id: string; position: string }[] = await this.dataSource.query(
      `SELECT transaction_id::text AS transaction_id, global_position::text AS position FROM events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
        ORDER BY events.transaction_id, events.global_position
       OFFSET $3 LIMIT 1`,
      [after?.transactionId ?? '0', after?.position ?? '0', count - 1],
    );
    return row ? { transactionId: row.transaction_id, position: row.position } : null;
  }

  /**
   * Appends to many streams in one transaction (the caller's, or its own): the bulk import path.
   * Expected versions are checked as in `append` (streams that go on: read first; new streams:
   * the unique key); one stale stream rejects the whole batch. Returns the number of events written.
   *
   * One INSERT … SELECT FROM unnest per chunk of up to APPEND_MANY_ROWS events or
   * APPEND_MANY_CHARS of JSON: the short columns as arrays, the documents as one text of JSON lines
   * split by string_to_array (JSON.stringify never writes a raw newline). A parameter per value
   * made node-pg and PostgreSQL handle six parameters per row, and a text[] of documents would have
   * node-pg quote every `"`. The next chunk is built while PostgreSQL inserts the one before.
   */
  async appendMany(
    batch: { streamId: string; expectedVersion: number; events: NewEvent[] }[],
    metadata: EventMetadata,
    queryRunner?: QueryRunner,
  ): Promise<number> {
    const expected = new Map<string, number>();
    for (const { streamId, expectedVersion, events } of batch) {
      assertVersion(expectedVersion);
      // Two entries for one stream would both claim the same versions.
      if (expected.has(streamId)) throw new Error(`appendMany: stream ${streamId} appears more than once`);
      if (events.length > 0) expected.set(streamId, expectedVersion);
    }
    if (expected.size === 0) return 0;

    const schemaVersion = (event: NewEvent) => this.schemaVersion(event);
    /** [stream ids, versions, types, schema versions, JSON lines] per chunk. */
    function* chunks(): Generator<unknown[]> {
      let streamIds: string[] = [];
      let versions: number[] = [];
      let types: string[] = [];
      let schemaVersions: number[] = [];
      let documents: string[] = [];
      let chars = 0;
      for (const { streamId, expectedVersion, events } of batch) {
        for (let index = 0; index < events.length; index++) {
          const document = toJson(events[index].data);
          streamIds.push(streamId);
          versions.push(expectedVersion + index + 1);
          types.push(events[index].type);
          schemaVersions.push(schemaVersion(events[index]));
          documents.push(document);
          chars += document.length;
          if (documents.length >= APPEND_MANY_ROWS || chars >= APPEND_MANY_CHARS) {
            yield [streamIds, versions, types, schemaVersions, documents.join('\n')];
            [streamIds, versions, types, schemaVersions, documents, chars] = [[], [], [], [], [], 0];
          }
        }
      }
      if (documents.length) yield [streamIds, versions, types, schemaVersions, documents.join('\n')];
    }

    const insert = async (runner: QueryRunner, params: unknown[]): Promise<number> => {
      try {
        const result = await runner.query(
          `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata)
           SELECT r.stream_id, r.stream_version, r.type, r.schema_version, r.data::jsonb, $6::jsonb
             FROM unnest($1::text[], $2::int[], $3::text[], $4::int[], string_to_array($5::text, E'\\n'))
               AS r(stream_id, stream_version, type, schema_version, data)`,
          [...params, JSON.stringify(metadata)],
          true,
        );
        return result.affected ?? 0;
      } catch (err) {
        if (!isStreamVersionConflict(err)) throw err;
        const streamId = conflictingStream(err);
        throw new WrongExpectedVersionError(
          streamId ?? '(one of the batch)',
          expected.get(streamId ?? '') ?? 0,
        );
      }
    };

    const write = async (runner: QueryRunner): Promise<number> => {
      // Streams expected to be new need no lookup: their version 1 would collide on the key.
      const continued = [...expected].filter(([, version]) => version > 0);
      if (continued.length > 0) {
        const actual = await this.streamVersions(
          continued.map(([streamId]) => streamId),
          runner,
        );
        for (const [streamId, version] of continued) {
          const actualVersion = actual.get(streamId) ?? 0;
          if (actualVersion !== version)
            throw new WrongExpectedVersionError(streamId, version, actualVersion);
        }
      }
      let written = 0;
      let inserting: Promise<number> | undefined;
      for (const params of chunks()) {
        // Built while the chunk before is being inserted; one statement in flight at a time.
        if (inserting) written += await inserting;
        inserting = insert(runner, params);
        // Awaited below; until then a failure must not count as an unhandled rejection.
        inserting.catch(() => undefined);
        // Let the statement go out before the next chunk's CPU work.
        await new Promise((resolve) => setImmediate(resolve));
      }
      return written + (await inserting!);
    };
    return queryRunner ? write(queryRunner) : withTransaction(this.dataSource, write);
  }

  async loadCheckpoint(name: string, queryRunner?: QueryRunner): Promise<Checkpoint | null> {
    const rows: { transaction_id: string; global_position: string }[] = await (
      queryRunner ?? this.dataSource
    ).query(
      'SELECT transaction_id::text, global_position::text FROM projection_checkpoints WHERE name = $1',
      [name],
    );
    return rows.length === 0
      ? null
      : { transactionId: rows[0].transaction_id, position: rows[0].global_position };
  }

  /** Pass the queryRunner of the projection's own writes, so both commit or neither does. */
  async saveCheckpoint(name: string, checkpoint: Checkpoint, queryRunner?: QueryRunner): Promise<void> {
    await (queryRunner ?? this.dataSource).query(
      `INSERT INTO projection_checkpoints (name, transaction_id, global_position)
       VALUES ($1, $2::xid8, $3::bigint)
       ON CONFLICT (name) DO UPDATE
         SET transaction_id = excluded.transaction_id,
             global_position = excluded.global_position,
             updated_at = now()`,
      [name, checkpoint.transactionId, checkpoint.position],
    );
  }

  private schemaVersion(event: NewEvent): number {
    return event.schemaVersion ?? this.codec?.schemaVersionOf(event.type) ?? 1;
  }

  /** A stored row as readers see it: with a codec, the data is upcast to the current schema version. */
  private toRecordedEvent(row: EventRow): RecordedEvent {
    let { data, schema_version: schemaVersion } = row;
    if (this.codec) {
      const current = this.codec.schemaVersionOf(row.type);
      if (schemaVersion < current) {
        data = this.codec.upcast(row.type, schemaVersion, data);
        schemaVersion = current;
      }
    }
    return {
      position: row.position,
      transactionId: row.transaction_id,
      streamId: row.stream_id,
      version: row.stream_version,
      type: row.type,
      schemaVersion,
      data,
      metadata: row.metadata,
      recordedAt: row.recorded_at,
    };
  }

  private async streamVersions(streamIds: string[], queryRunner?: QueryRunner): Promise<Map<string, number>> {
    const rows: { stream_id: string; version: number }[] = await (queryRunner ?? this.dataSource).query(
      `SELECT stream_id, max(stream_version) AS version FROM events
        WHERE stream_id = ANY($1::text[]) GROUP BY stream_id`,
      [streamIds],
    );
    return new Map(rows.map((row) => [row.stream_id, row.version]));
  }
}

/** Runs `fn` in a transaction on a dedicated connection: committed if it resolves, rolled back if it throws. */
export async function withTransaction<T>(
  dataSource: DataSource,
  fn: (queryRunner: QueryRunner) => Promise<T>,
): Promise<T> {
  const queryRunner = dataSource.createQueryRunner();
  await queryRunner.connect();
  try {
    await queryRunner.startTransaction();
    try {
      const result = await fn(queryRunner);
      await queryRunner.commitTransaction();
      return result;
    } catch (err) {
      // Keep the original error: a failed rollback (e.g. the connection died) says nothing new.
      if (queryRunner.isTransactionActive) await queryRunner.rollbackTransaction().catch(() => undefined);
      throw err;
    }
  } finally {
    await queryRunner.release();
  }
}

/**
 * to_json of a UTC timestamp ("2020-01-01T08:00:00", ".5", ".123456") as readAll's to_char
 * writes it: milliseconds, truncated, and a Z.
 */
function isoFromJson(time: string): string {
  return time.length === 19 ? `${time}.000Z` : `${time.slice(0, 23).padEnd(23, '0')}Z`;
}

/** Whether `a` comes after `b` in the log's commit-safe order; bigints as decimal strings. */
function isAfter(a: Checkpoint, b: Checkpoint): boolean {
  const byNumber = (x: string, y: string) => x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
  return (byNumber(a.transactionId, b.transactionId) || byNumber(a.position, b.position)) > 0;
}

function assertVersion(version: number): void {
  if (!Number.isInteger(version) || version < 0) {
    throw new RangeError(`expectedVersion must be an integer >= 0, got ${version}`);
  }
}

/** Serialised here: pg would turn a top-level JS array into a PostgreSQL array, not JSON. */
function toJson(data: unknown): string {
  return JSON.stringify(data ?? null);
}

/** TypeORM's QueryFailedError keeps the pg error as driverError. */
function driverError(err: unknown): { code?: string; constraint?: string; detail?: string } {
  return (err as { driverError?: object }).driverError ?? (err as object);
}

function isStreamVersionConflict(err: unknown): boolean {
  const { code, constraint } = driverError(err);
  return code === '23505' && constraint === STREAM_VERSION_KEY;
}

/** From "Key (stream_id, stream_version)=(case-1, 1) already exists." */
function conflictingStream(err: unknown): string | undefined {
  return /^Key \(stream_id, stream_version\)=\((.*), \d+\) already exists/.exec(
    driverError(err).detail ?? '',
  )?.[1];
}

/**
 * Queues the writers of one stream for the rest of the transaction. Optimistic concurrency alone
 * stays correct, but twenty writers racing for one case would make some lose round after round;
 * waiting in line costs one round trip and no retries. Writers of other streams are not affected.
 */
export async function lockStream(queryRunner: QueryRunner, streamId: string): Promise<void> {
  await queryRunner.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [streamId]);
}

/**
 * Wakes the LISTENers of events_appended in every process after this process committed appends
 * whose trigger stayed quiet (AppendOptions.wakeListeners = 'caller'). Coalesced: one NOTIFY at a
 * time and at most one per `intervalMs`, however many commands commit meanwhile, since listeners
 * read whatever is new from the log. The NOTIFY's own tiny transaction need not wait for its WAL
 * flush (synchronous_commit off), so it holds PostgreSQL's notify lock only for a moment. A lost
 * wake-up (crash, connection error) only delays listeners until their fallback poll.
 */
export class ListenerWakeups {
  private sending = false;
  private pending = false;
  private lastSent = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly intervalMs = 5,
  ) {}

  /** Call after commit. */
  poke(): void {
    this.pending = true;
    if (!this.sending) void this.send();
  }

  private async send(): Promise<void> {
    this.sending = true;
    try {
      while (this.pending) {
        const wait = this.lastSent + this.intervalMs - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref());
        this.pending = false;
        this.lastSent = Date.now();
        if (!this.dataSource.isInitialized) return;
        await this.dataSource
          .query(
            `SELECT set_config('synchronous_commit', 'off', true), pg_notify('${EVENTS_APPENDED_CHANNEL}', '')`,
          )
          .catch(() => undefined);
      }
    } finally {
      this.sending = false;
    }
  }
}
