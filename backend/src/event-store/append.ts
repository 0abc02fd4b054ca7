import type { DataSource, QueryRunner } from 'typeorm';
import {
  WrongExpectedVersionError,
  type EventCodec,
  type RecordedEvent,
  type StreamAppend,
} from './event-types.js';
import { columnParams, runPrepared, unnestSource, upsertSql, type ReadModel } from './read-model.js';
import { schemaVersionOf, toRecordedEvent } from './stored-rows.js';

/** The unique key on (stream_id, stream_version) that stops two writers claiming one version. */
export const STREAM_VERSION_KEY = 'events_stream_version_key';

/** What the append statement brings back of each event it inserted: its keys. */
interface AppendedRow {
  stream_id: string;
  stream_version: number;
  position: string;
  transaction_id: string;
  /** As a read of the row gives it (stored-rows.ts). */
  recorded_at: string;
}

const RETURNED = 'stream_id, stream_version, global_position, transaction_id, recorded_at';
const UTC_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

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
 * sort), so two such statements never wait on each other in a cycle.
 *
 * The appends' read-model rows (StreamAppend.rows) are written by the same statement, one upsert
 * per table for all the appends, each row joined to its stream's inserted events (a stale
 * append's rows join nothing) and given their last position. The events come first, so the
 * statement locks `events` before any read-model table, in the order a projection rebuild's swap
 * locks them. The text depends only on which tables are written, not on how many appends or rows:
 * it is prepared once per connection (runPrepared). It brings back only the events' keys and
 * recorded_at (as a read formats it); the answer's events are built from the appends. The statement's trigger wakes the log's listeners
 * once at commit, however many streams it appended to.
 */
export async function appendStreams(
  db: DataSource | QueryRunner,
  appends: StreamAppend[],
  codec?: EventCodec,
): Promise<(RecordedEvent[] | WrongExpectedVersionError)[]> {
  if (!appends.length) return [];
  const sorted = [...appends].sort((a, b) => (a.streamId < b.streamId ? -1 : 1));
  const [chunk] = appendChunks(sorted, codec);
  const models = [...chunk.models.keys()].sort((a, b) => (a.table < b.table ? -1 : 1));
  const params = [...chunk.params];
  for (const model of models) {
    const { streams, rows } = chunk.models.get(model)!;
    const position = model.columns.findIndex((column) => column.position);
    params.push(streams, ...columnParams(model.columns, rows, position < 0 ? undefined : [position]));
  }
  const appended = await runPrepared<AppendedRow>(db, appendSql(models), params);
  const byStream = new Map<string, RecordedEvent[]>();
  const byId = new Map(sorted.map((append) => [append.streamId, append]));
  for (const row of appended) {
    const append = byId.get(row.stream_id)!;
    const index = row.stream_version - append.expectedVersion - 1;
    const event = append.events[index];
    const schemaVersion = schemaVersionOf(event, codec);
    const upcast = codec && schemaVersion < codec.schemaVersionOf(event.type);
    const recorded = toRecordedEvent(
      {
        position: row.position,
        transaction_id: row.transaction_id,
        stream_id: row.stream_id,
        stream_version: row.stream_version,
        type: event.type,
        schema_version: schemaVersion,
        // An upcaster gets its own copy, as it would of a stored row.
        data: upcast ? JSON.parse(event.json ?? JSON.stringify(event.data ?? null)) : (event.data ?? null),
        metadata: append.metadata,
        // As stored, so the answer is what a read of the row gives.
        recorded_at: row.recorded_at,
      },
      codec,
    );
    const events = byStream.get(row.stream_id) ?? byStream.set(row.stream_id, []).get(row.stream_id)!;
    events[index] = recorded;
  }
  return appends.map(
    ({ streamId, expectedVersion }) =>
      byStream.get(streamId) ?? new WrongExpectedVersionError(streamId, expectedVersion),
  );
}

const appendTexts = new Map<string, string>();

/** The append statement writing `models`' rows beside the events (parameters: appendStreams'). */
function appendSql(models: ReadModel[]): string {
  const key = models.map(({ table, columns }) => `${table}(${columns.map(({ name }) => name)})`).join(' ');
  let text = appendTexts.get(key);
  if (text) return text;
  let next = 9;
  const writes = models.map((model, index) => {
    const columns = model.columns.filter((column) => !column.position);
    const source = unnestSource(columns, next, [{ name: 'stream_id', type: 'text' }]);
    next += columns.length + 1;
    return `, rows${index} AS (${upsertSql(model, model.table, `${source} JOIN heads h USING (stream_id)`, 'h.position')})`;
  });
  text = `WITH firsts AS (${INSERT} FROM ${INPUT}
        WHERE version = expected + 1
          AND (SELECT coalesce(max(stream_version), 0) FROM events e WHERE e.stream_id = input.stream_id) = expected
        ORDER BY n
       ON CONFLICT ON CONSTRAINT ${STREAM_VERSION_KEY} DO NOTHING
       RETURNING ${RETURNED}),
     rest AS (${INSERT} FROM ${INPUT} WHERE version > expected + 1 AND stream_id IN (SELECT stream_id FROM firsts)
       RETURNING ${RETURNED}),
     appended AS (SELECT * FROM firsts UNION ALL SELECT * FROM rest),
     heads AS (SELECT stream_id, max(global_position) AS position FROM appended GROUP BY stream_id)${writes.join('')}
     SELECT stream_id, stream_version, global_position::text AS position, transaction_id::text AS transaction_id,
            to_char(recorded_at AT TIME ZONE 'UTC', ${UTC_MS}) AS recorded_at
       FROM appended`;
  appendTexts.set(key, text);
  return text;
}

/** `stale` with the stream's version as this connection now sees it. */
export async function withActualVersion(
  db: DataSource | QueryRunner,
  stale: WrongExpectedVersionError,
): Promise<WrongExpectedVersionError> {
  const [{ version }]: { version: number }[] = await db.query(
    'SELECT coalesce(max(stream_version), 0) AS version FROM events WHERE stream_id = $1',
    [stale.streamId],
  );
  return new WrongExpectedVersionError(stale.streamId, stale.expectedVersion, version);
}

/**
 * Events to insert, from arrays and one text of JSON lines split by string_to_array (JSON.stringify
 * never writes a raw newline), not a parameter per value nor a text[] that node-pg would quote.
 * Metadata and recordedAt go once per run of streams sharing them ($8, a JSON array; `context`).
 */
export const INPUT = `unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::int[], string_to_array($6, E'\\n'), $7::int[])
  WITH ORDINALITY AS input(stream_id, expected, version, type, schema_version, data, context, n)`;
export const INSERT = `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
  SELECT stream_id, version, type, schema_version, data::jsonb, $8::jsonb -> context -> 0,
         coalesce(($8::jsonb -> context ->> 1)::timestamptz, now())`;

/** INPUT's parameters for some appends, as they are being collected. */
export class AppendChunk {
  /** Per event: stream ids, expected versions, versions, types, schema versions, JSON, context. */
  columns: unknown[][] = [[], [], [], [], [], [], []];
  chars = 0;
  streams = 0;
  /** JSON of [metadata, recordedAt]. */
  contexts: string[] = [];
  /** INPUT's. */
  params: unknown[] = new Array(8);
  /** The appends' read-model rows by table, each row with its stream. */
  models = new Map<ReadModel, { streams: string[]; rows: unknown[][] }>();

  done(): this {
    const [ids, expected, versions, types, schemaVersions, documents, contexts] = this.columns;
    const input = [ids, expected, versions, types, schemaVersions, documents.join('\n'), contexts];
    this.params.splice(0, 8, ...input, `[${this.contexts.join(',')}]`);
    return this;
  }
}

/**
 * The parameters of INPUT for `appends`, in their order: one chunk per `maxRows` events or
 * `maxChars` characters of JSON (streams whole), with the appends' read-model rows.
 */
export function* appendChunks(
  appends: StreamAppend[],
  codec?: EventCodec,
  maxRows = Infinity,
  maxChars = Infinity,
): Generator<AppendChunk> {
  const seen = new Set<string>();
  let chunk = new AppendChunk();
  let shared: StreamAppend | undefined;
  for (const append of appends) {
    const { streamId, expectedVersion, events, metadata, recordedAt } = append;
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
      // Serialised once, by the caller when it gave the JSON: pg would turn a top-level JS array
      // into a PostgreSQL array, not JSON.
      const document = event.json ?? JSON.stringify(event.data ?? null);
      chunk.chars += document.length;
      ids.push(streamId);
      expected.push(expectedVersion);
      versions.push(expectedVersion + index + 1);
      types.push(event.type);
      schemaVersions.push(schemaVersionOf(event, codec));
      documents.push(document);
      contexts.push(chunk.contexts.length - 1);
    });
    chunk.streams++;
    for (const { model, rows } of append.rows ?? []) {
      const written =
        chunk.models.get(model) ?? chunk.models.set(model, { streams: [], rows: [] }).get(model)!;
      for (const row of rows) {
        written.streams.push(streamId);
        written.rows.push(row);
      }
    }
    if (ids.length >= maxRows || chunk.chars >= maxChars) {
      yield chunk.done();
      chunk = new AppendChunk();
    }
  }
  if (chunk.streams) yield chunk.done();
}
