import type { DataSource, QueryRunner } from 'typeorm';
import {
  WrongExpectedVersionError,
  type EventCodec,
  type RecordedEvent,
  type StreamAppend,
} from './event-types.js';
import { COLUMNS, schemaVersionOf, toRecordedEvent, type EventRow } from './stored-rows.js';

/** The unique key on (stream_id, stream_version) that stops two writers claiming one version. */
export const STREAM_VERSION_KEY = 'events_stream_version_key';

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
export async function appendStreams(
  db: DataSource | QueryRunner,
  appends: StreamAppend[],
  codec?: EventCodec,
): Promise<(RecordedEvent[] | WrongExpectedVersionError)[]> {
  if (!appends.length) return [];
  const sorted = [...appends].sort((a, b) => (a.streamId < b.streamId ? -1 : 1));
  const [{ params, alongside, rest }] = appendChunks(sorted, codec);
  const rows: EventRow[] = await db.query(
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
    if (events) events.push(toRecordedEvent(row, codec));
    else byStream.set(row.stream_id, [toRecordedEvent(row, codec)]);
  }
  return appends.map(
    ({ streamId, expectedVersion }) =>
      byStream.get(streamId) ?? new WrongExpectedVersionError(streamId, expectedVersion),
  );
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

/**
 * The parameters of INPUT for `appends`, in their order: one chunk per `maxRows` events or
 * `maxChars` characters of JSON (streams whole), with each stream's `alongside` SQL.
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
      // Serialised here: pg would turn a top-level JS array into a PostgreSQL array, not JSON.
      const document = JSON.stringify(event.data ?? null);
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
