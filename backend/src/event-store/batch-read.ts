import type { DataSource } from 'typeorm';
import { afterParams, COMMIT_SAFE_AFTER, COMMIT_SAFE_ORDER } from './commit-safe-read.js';
import type { Checkpoint, EventCodec, RecordedEvent } from './event-types.js';
import { checkLimit, type BatchRow } from './stored-rows.js';

/**
 * Data per batch, as stored (jsonb, maybe compressed): its JSON text is a few times larger, far
 * below V8's longest string.
 */
const MAX_DOCUMENT_STORED_BYTES = 32 * 1024 * 1024;

/**
 * readAll for bulk readers (the projection rebuild): the same events in the same commit-safe
 * order, as one JSON document per batch, since one JSON.parse costs Node less than node-pg's
 * parsing field by field. PostgreSQL concatenates the document (json_agg looks up a conversion
 * per argument and row); to_json writes times in ISO 8601 whatever the DateStyle.
 *
 * A batch stops early once its data takes MAX_DOCUMENT_STORED_BYTES as stored (at least one
 * event). `more`: the batch stopped at a limit, by count or by size, so more may follow.
 */
export async function readAllInOneDocument(
  dataSource: DataSource,
  after: Checkpoint | null,
  limit: number,
  codec?: EventCodec,
): Promise<{ events: RecordedEvent[]; more: boolean }> {
  checkLimit(limit);
  const [{ batch, read, kept }]: { batch: string | null; read: number; kept: number }[] =
    await dataSource.query(
      `SELECT '[' || string_agg('["' || global_position || '","' || transaction_id || '",' || to_json(stream_id)
                || ',' || stream_version || ',' || to_json(type) || ',' || schema_version || ',' || data
                || ',' || metadata || ',' || to_json(recorded_at AT TIME ZONE 'UTC') || ']', ',')
                FILTER (WHERE stored_before < $4) || ']' AS batch,
              count(*)::int AS read, count(*) FILTER (WHERE stored_before < $4)::int AS kept
         FROM (SELECT *, sum(pg_column_size(data)) OVER (ORDER BY transaction_id, global_position)
                         - pg_column_size(data) AS stored_before
                 FROM (SELECT * FROM events WHERE ${COMMIT_SAFE_AFTER} ${COMMIT_SAFE_ORDER}
                        LIMIT $3) AS first) AS e`,
      [...afterParams(after), limit, MAX_DOCUMENT_STORED_BYTES],
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
      const schemaVersion = Math.max(codec?.schemaVersionOf(type) ?? storedVersion, storedVersion);
      return {
        position,
        transactionId,
        streamId,
        version,
        type,
        schemaVersion,
        data: schemaVersion > storedVersion ? codec!.upcast(type, storedVersion, data) : data,
        metadata,
        recordedAt: isoFromJson(at),
      };
    },
  );
  return { events, more };
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
