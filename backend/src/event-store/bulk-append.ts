import type { DataSource, QueryRunner } from 'typeorm';
import { STREAM_VERSION_KEY } from './append.js';
import {
  WrongExpectedVersionError,
  type EventCodec,
  type EventMetadata,
  type NewEvent,
  type StreamAppend,
} from './event-types.js';
import { schemaVersionOf } from './stored-rows.js';
import { withTransaction } from './transactions.js';

/** appendMany's statements: up to this many events, or characters of JSON (whole streams). */
const MANY_ROWS = 10_000;
const MANY_CHARS = 4 * 1024 * 1024;

/**
 * Events sealed and sent at a time (`seal`): a part's sealing and JSON are done while PostgreSQL
 * inserts the part before. A part is one statement for the restore's events (well under
 * MANY_CHARS): with two statements a part, the second waited for the first with Node idle, and the
 * next part's sealing then outlasted the second's insert with PostgreSQL idle.
 */
const SEAL_ROWS = 1_000;

/**
 * One statement's rows from two texts: a JSON array of the small columns, and the documents as
 * JSON lines (JSON.stringify never writes a raw newline), zipped by ROWS FROM. No array
 * parameter: node-pg quotes every element of one, which cost more than the statement.
 */
const INSERT_MANY = `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata)
  SELECT r.stream_id, r.version, r.type, r.schema_version, r.data::jsonb, $3::jsonb
    FROM ROWS FROM (json_to_recordset($1::json) AS (s text, v int, t text, k int),
                    unnest(string_to_array($2::text, E'\\n')))
      AS r(stream_id, version, type, schema_version, data)`;

/** TypeORM's QueryFailedError keeps the pg error as driverError. */
type PgError = { code?: string; constraint?: string; detail?: string };

/**
 * Appends to many streams in one transaction (the caller's, or its own): the bulk import path.
 * One stale stream rejects the whole batch: streams that go on are checked first, new ones by
 * the unique key (a plain INSERT, without appendStreams' per-row checks). Returns the number of
 * events written.
 *
 * `seal` (the event store's cipher) is applied to SEAL_ROWS events at a time, and the next
 * statement is built while PostgreSQL runs the one before: the cipher's key look-up, its
 * encryption and the JSON of one part overlap the insert of the part before.
 */
export async function appendMany(
  dataSource: DataSource,
  batch: { streamId: string; expectedVersion: number; events: NewEvent[] }[],
  metadata: EventMetadata,
  codec?: EventCodec,
  queryRunner?: QueryRunner,
  seal?: (appends: StreamAppend[]) => Promise<StreamAppend[]>,
): Promise<number> {
  const appends: StreamAppend[] = batch
    .filter(({ events }) => events.length > 0)
    .map((entry) => ({ ...entry, metadata }));
  const seen = new Set<string>();
  for (const { streamId, expectedVersion } of appends) {
    if (!Number.isInteger(expectedVersion) || expectedVersion < 0)
      throw new RangeError(`expectedVersion must be an integer >= 0, got ${expectedVersion}`);
    // Two appends to one stream would both claim the same versions.
    if (seen.size === seen.add(streamId).size) throw new Error(`stream ${streamId} appears more than once`);
  }
  const write = async (runner: QueryRunner): Promise<number> => {
    const continued = appends.filter(({ expectedVersion }) => expectedVersion > 0);
    const [stale]: { stream_id: string; expected: number; actual: number }[] = await runner.query(
      `SELECT * FROM (SELECT *, (SELECT coalesce(max(stream_version), 0) FROM events e WHERE e.stream_id = k.stream_id) AS actual
                        FROM json_to_recordset($1::json) AS k(stream_id text, expected int)) AS v
        WHERE actual <> expected LIMIT 1`,
      [
        JSON.stringify(
          continued.map(({ streamId, expectedVersion }) => ({
            stream_id: streamId,
            expected: expectedVersion,
          })),
        ),
      ],
    );
    if (stale) throw new WrongExpectedVersionError(stale.stream_id, stale.expected, stale.actual);
    const context = JSON.stringify(metadata);
    const insert = async (params: string[]): Promise<number> => {
      try {
        return (await runner.query(INSERT_MANY, [...params, context], true)).affected ?? 0;
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
    for (const part of parts(appends, SEAL_ROWS)) {
      const sealed = seal ? await seal(part) : part;
      for (const params of statements(sealed, codec)) {
        if (inserting) written += await inserting;
        inserting = insert(params);
        // Awaited below; until then a failure must not count as an unhandled rejection.
        inserting.catch(() => undefined);
        // Let the statement go out before the next part's CPU work.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return written + ((await inserting) ?? 0);
  };
  return queryRunner ? write(queryRunner) : withTransaction(dataSource, write);
}

/** `appends` in runs of whole streams of about `rows` events. */
function* parts(appends: StreamAppend[], rows: number): Generator<StreamAppend[]> {
  let start = 0;
  let count = 0;
  for (let index = 0; index < appends.length; index++) {
    count += appends[index].events.length;
    if (count >= rows) {
      yield appends.slice(start, index + 1);
      [start, count] = [index + 1, 0];
    }
  }
  if (start < appends.length) yield appends.slice(start);
}

/** INSERT_MANY's first two parameters, per MANY_ROWS events or MANY_CHARS characters of JSON. */
function* statements(appends: StreamAppend[], codec?: EventCodec): Generator<string[]> {
  let keys: { s: string; v: number; t: string; k: number }[] = [];
  let documents: string[] = [];
  let chars = 0;
  for (const { streamId, expectedVersion, events } of appends) {
    events.forEach((event, index) => {
      // Serialised here: pg would turn a top-level JS array into a PostgreSQL array, not JSON.
      const document = JSON.stringify(event.data ?? null);
      chars += document.length;
      keys.push({
        s: streamId,
        v: expectedVersion + index + 1,
        t: event.type,
        k: schemaVersionOf(event, codec),
      });
      documents.push(document);
    });
    if (keys.length >= MANY_ROWS || chars >= MANY_CHARS) {
      yield [JSON.stringify(keys), documents.join('\n')];
      [keys, documents, chars] = [[], [], 0];
    }
  }
  if (keys.length) yield [JSON.stringify(keys), documents.join('\n')];
}
