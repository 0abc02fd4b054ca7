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
   * stream's events were appended (e.g. INSERT … SELECT … WHERE ${sql.appended}); several
   * writes (one data-modifying CTE body each) go as an array.
   */
  alongside?: (sql: AlongsideSql) => string | string[];
}

export interface AlongsideSql {
  /** Binds a value and answers its placeholder ($n). */
  param: (value: unknown) => string;
  /** SQL: the global position of the last appended event. */
  lastPosition: string;
  /** SQL condition: true when the events were appended. */
  appended: string;
}

/** Where every statement that appends is announced at its commit (migrations/003_live_notify.sql). */
export const EVENTS_APPENDED_CHANNEL = 'events_appended';

/**
 * Data per readAllInOneDocument batch, as stored (jsonb, maybe compressed): its JSON text is a few
 * times larger, far below V8's longest string.
 */
const MAX_DOCUMENT_STORED_BYTES = 32 * 1024 * 1024;

/** appendMany's statements: up to this many events, or characters of JSON (whole streams). */
const MANY_ROWS = 10_000;
const MANY_CHARS = 4 * 1024 * 1024;
const STREAM_VERSION_KEY = 'events_stream_version_key';

// ORDER BY must name events.transaction_id: a bare transaction_id would mean this text alias,
// which sorts '10' before '9'. recorded_at comes as toISOString() writes it: no Date to parse.
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

  /** Throws WrongExpectedVersionError, with the stream's actual version, if the stream moved on. */
  async append(
    streamId: string,
    expectedVersion: number,
    events: NewEvent[],
    metadata: EventMetadata,
    queryRunner?: QueryRunner,
  ): Promise<RecordedEvent[]> {
    const [result] = await this.appendStreams([{ streamId, expectedVersion, events, metadata }], queryRunner);
    if (result instanceof WrongExpectedVersionError) throw await this.withActualVersion(result, queryRunner);
    return result;
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
   * no one else can hold n+2. First events go in stream order (ORDER BY the ordinality needs no
   * sort), so two such statements never wait on each other in a cycle. The events come first in
   * the statement, so it locks `events` before any table of `alongside`, in the order a
   * projection rebuild's swap locks them. The statement's trigger wakes the log's listeners once
   * at commit, however many streams it appended to.
   */
  async appendStreams(
    appends: StreamAppend[],
    queryRunner?: QueryRunner,
  ): Promise<(RecordedEvent[] | WrongExpectedVersionError)[]> {
    if (!appends.length) return [];
    const sorted = [...appends].sort((a, b) => (a.streamId < b.streamId ? -1 : 1));
    const [{ params, alongside, rest }] = this.appendChunks(sorted);
    const rows: EventRow[] = await (queryRunner ?? this.dataSource).query(
      `WITH firsts AS (${INSERT} FROM ${INPUT}
          WHERE version = expected + 1
            AND (SELECT coalesce(max(stream_version), 0) FROM events e WHERE e.stream_id = input.stream_id) = expected
          ORDER BY n
         ON CONFLICT ON CONSTRAINT ${STREAM_VERSION_KEY} DO NOTHING
         RETURNING *),
       ${rest ? `rest AS (${INSERT} FROM ${INPUT} WHERE version > expected + 1 AND stream_id IN (SELECT stream_id FROM firsts) RETURNING *),` : ''}
       appended AS (SELECT * FROM firsts${rest ? ' UNION ALL SELECT * FROM rest' : ''})${alongside}
       SELECT ${COLUMNS} FROM appended ORDER BY stream_id, stream_version`,
      params,
    );
    const byStream = new Map<string, RecordedEvent[]>();
    for (const row of rows) {
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
    checkLimit(limit);
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
   * order, as one JSON document per batch, since one JSON.parse costs Node less than node-pg's
   * parsing field by field. PostgreSQL concatenates the document (json_agg looks up a conversion
   * per argument and row); to_json writes times in ISO 8601 whatever the DateStyle.
   *
   * A batch stops early once its data takes MAX_DOCUMENT_STORED_BYTES as stored (at least one
   * event), far below the longest string V8 can make. `more`: the batch stopped at a limit, by
   * count or by size, so more may follow.
   */
  async readAllInOneDocument(
    after: Checkpoint | null,
    limit: number,
  ): Promise<{ events: RecordedEvent[]; more: boolean }> {
    checkLimit(limit);
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
   * One stale stream rejects the whole batch: streams that go on are checked first, new ones by
   * the unique key (a plain INSERT, without appendStreams' per-row checks). Returns the number of
   * events written. The next statement is built while PostgreSQL runs the one before.
   */
  async appendMany(
    batch: { streamId: string; expectedVersion: number; events: NewEvent[] }[],
    metadata: EventMetadata,
    queryRunner?: QueryRunner,
  ): Promise<number> {
    const appends = batch.filter(({ events }) => events.length > 0).map((entry) => ({ ...entry, metadata }));
    const chunks = this.appendChunks(appends, MANY_ROWS, MANY_CHARS);
    const write = async (runner: QueryRunner): Promise<number> => {
      const continued = appends.filter(({ expectedVersion }) => expectedVersion > 0);
      const [stale]: { stream_id: string; expected: number; actual: number }[] = await runner.query(
        `SELECT * FROM (SELECT *, (SELECT coalesce(max(stream_version), 0) FROM events e WHERE e.stream_id = k.stream_id) AS actual
                          FROM unnest($1::text[], $2::int[]) AS k(stream_id, expected)) AS v
          WHERE actual <> expected LIMIT 1`,
        [continued.map(({ streamId }) => streamId), continued.map(({ expectedVersion }) => expectedVersion)],
      );
      if (stale) throw new WrongExpectedVersionError(stale.stream_id, stale.expected, stale.actual);
      const insert = async ({ params }: AppendChunk): Promise<number> => {
        try {
          return (await runner.query(`${INSERT} FROM ${INPUT}`, params, true)).affected ?? 0;
        } catch (err) {
          const { code, constraint, detail } =
            (err as { driverError?: PgError }).driverError ?? (err as PgError);
          if (code !== '23505' || constraint !== STREAM_VERSION_KEY) throw err;
          // From "Key (stream_id, stream_version)=(case-1, 1) already exists."
          const streamId = /^Key \(stream_id, stream_version\)=\((.*), \d+\) already exists/.exec(
            detail ?? '',
          )?.[1];
          const expected = appends.find((append) => append.streamId === streamId)?.expectedVersion ?? 0;
          throw new WrongExpectedVersionError(streamId ?? '(one of the batch)', expected);
        }
      };
      let written = 0;
      let inserting: Promise<number> | undefined;
      for (const chunk of chunks) {
        if (inserting) written += await inserting;
        inserting = insert(chunk);
        // Awaited below; until then a failure must not count as an unhandled rejection.
        inserting.catch(() => undefined);
        // Let the statement go out before the next chunk's CPU work.
        await new Promise((resolve) => setImmediate(resolve));
      }
      return written + ((await inserting) ?? 0);
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

  /** `stale` with the stream's version as this connection now sees it. */
  private async withActualVersion(
    stale: WrongExpectedVersionError,
    queryRunner?: QueryRunner,
  ): Promise<WrongExpectedVersionError> {
    const [{ version }]: { version: number }[] = await (queryRunner ?? this.dataSource).query(
      'SELECT coalesce(max(stream_version), 0) AS version FROM events WHERE stream_id = $1',
      [stale.streamId],
    );
    return new WrongExpectedVersionError(stale.streamId, stale.expectedVersion, version);
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

  /**
   * The parameters of INPUT for `appends`, in their order: one chunk per `maxRows` events or
   * `maxChars` characters of JSON (streams whole), with each stream's `alongside` SQL.
   */
  private *appendChunks(
    appends: StreamAppend[],
    maxRows = Infinity,
    maxChars = Infinity,
  ): Generator<AppendChunk> {
    const seen = new Set<string>();
    let chunk = new AppendChunk();
    let shared: StreamAppend | undefined;
    for (const append of appends) {
      const { streamId, expectedVersion, events, metadata, recordedAt, alongside } = append;
      if (!Number.isInteger(expectedVersion) || expectedVersion < 0)
        throw new RangeError(`expectedVersion must be an integer >= 0, got ${expectedVersion}`);
      if (!events.length) throw new RangeError(`an append takes at least one event (stream ${streamId})`);
      // Two appends to one stream would both claim the same versions.
      if (seen.size === seen.add(streamId).size) throw new Error(`stream ${streamId} appears more than once`);
      if (!chunk.contexts.length || metadata !== shared?.metadata || recordedAt !== shared.recordedAt) {
        chunk.contexts.push(JSON.stringify([metadata, recordedAt ?? null]));
        shared = append;
      }
      const [ids, expected, versions, types, schemaVersions, documents, contexts] = chunk.columns;
      events.forEach((event, index) => {
        const document = toJson(event.data);
        chunk.chars += document.length;
        ids.push(streamId);
        expected.push(expectedVersion);
        versions.push(expectedVersion + index + 1);
        types.push(event.type);
        schemaVersions.push(this.schemaVersion(event));
        documents.push(document);
        contexts.push(chunk.contexts.length - 1);
      });
      chunk.streams++;
      chunk.rest ||= events.length > 1;
      if (alongside) {
        const param = (value: unknown) => `$${chunk.params.push(value)}`;
        const mine = `FROM appended WHERE stream_id = ${param(streamId)}`;
        const writes = alongside({
          param,
          lastPosition: `(SELECT max(global_position) ${mine})`,
          appended: `EXISTS (SELECT ${mine})`,
        });
        [writes].flat().forEach((sql, index) => {
          chunk.alongside += `, alongside${chunk.streams}_${index} AS (${sql})`;
        });
      }
      if (ids.length >= maxRows || chunk.chars >= maxChars) {
        yield chunk.done();
        chunk = new AppendChunk();
      }
    }
    if (chunk.streams) yield chunk.done();
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

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit <= 0)
    throw new RangeError(`limit must be a positive integer, got ${limit}`);
}

/** Serialised here: pg would turn a top-level JS array into a PostgreSQL array, not JSON. */
function toJson(data: unknown): string {
  return JSON.stringify(data ?? null);
}

/**
 * Events to insert, from arrays and one text of JSON lines split by string_to_array (JSON.stringify
 * never writes a raw newline), not a parameter per value nor a text[] that node-pg would quote.
 * Metadata and recordedAt go once per run of streams sharing them ($8, a JSON array; `context`).
 */
const INPUT = `unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::int[], string_to_array($6, E'\\n'), $7::int[])
  WITH ORDINALITY AS input(stream_id, expected, version, type, schema_version, data, context, n)`;
const INSERT = `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
  SELECT stream_id, version, type, schema_version, data::jsonb, $8::jsonb -> context -> 0,
         coalesce(($8::jsonb -> context ->> 1)::timestamptz, now())`;

/** INPUT's parameters for some appends, as they are being collected. */
class AppendChunk {
  /** Per event: stream ids, expected versions, versions, types, schema versions, JSON, context. */
  columns: unknown[][] = [[], [], [], [], [], [], []];
  chars = 0;
  streams = 0;
  /** JSON of [metadata, recordedAt]. */
  contexts: string[] = [];
  /** INPUT's, then alongside's. */
  params: unknown[] = new Array(8);
  alongside = '';
  /** Whether a stream has more than one event. */
  rest = false;

  done(): this {
    const [ids, expected, versions, types, schemaVersions, documents, contexts] = this.columns;
    const input = [ids, expected, versions, types, schemaVersions, documents.join('\n'), contexts];
    this.params.splice(0, 8, ...input, `[${this.contexts.join(',')}]`);
    return this;
  }
}

/** TypeORM's QueryFailedError keeps the pg error as driverError. */
type PgError = { code?: string; constraint?: string; detail?: string };

/**
 * Queues the writers of one stream for the rest of the transaction. Optimistic concurrency alone
 * stays correct, but twenty writers racing for one case would make some lose round after round;
 * waiting in line costs one round trip and no retries. Writers of other streams are not affected.
 */
export async function lockStream(queryRunner: QueryRunner, streamId: string): Promise<void> {
  await queryRunner.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [streamId]);
}
