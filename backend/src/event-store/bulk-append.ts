import type { DataSource, QueryRunner } from 'typeorm';
import { appendChunks, INPUT, INSERT, STREAM_VERSION_KEY, type AppendChunk } from './append.js';
import {
  WrongExpectedVersionError,
  type EventCodec,
  type EventMetadata,
  type NewEvent,
} from './event-types.js';
import { withTransaction } from './transactions.js';

/** appendMany's statements: up to this many events, or characters of JSON (whole streams). */
const MANY_ROWS = 10_000;
const MANY_CHARS = 4 * 1024 * 1024;

/** TypeORM's QueryFailedError keeps the pg error as driverError. */
type PgError = { code?: string; constraint?: string; detail?: string };

/**
 * Appends to many streams in one transaction (the caller's, or its own): the bulk import path.
 * One stale stream rejects the whole batch: streams that go on are checked first, new ones by
 * the unique key (a plain INSERT, without appendStreams' per-row checks). Returns the number of
 * events written. The next statement is built while PostgreSQL runs the one before.
 */
export async function appendMany(
  dataSource: DataSource,
  batch: { streamId: string; expectedVersion: number; events: NewEvent[] }[],
  metadata: EventMetadata,
  codec?: EventCodec,
  queryRunner?: QueryRunner,
): Promise<number> {
  const appends = batch.filter(({ events }) => events.length > 0).map((entry) => ({ ...entry, metadata }));
  const chunks = appendChunks(appends, codec, MANY_ROWS, MANY_CHARS);
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
  return queryRunner ? write(queryRunner) : withTransaction(dataSource, write);
}
