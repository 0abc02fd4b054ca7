import type { DataSource, QueryRunner } from 'typeorm';
import type { EventCodec, RecordedEvent } from './event-types.js';
import { COLUMNS, toRecordedEvent, type EventRow } from './stored-rows.js';

/** One stream's events in version order: what a command handler folds before it decides. */
export async function readStream(
  db: DataSource | QueryRunner,
  streamId: string,
  codec?: EventCodec,
): Promise<RecordedEvent[]> {
  const rows: EventRow[] = await db.query(
    `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_version`,
    [streamId],
  );
  return rows.map((row) => toRecordedEvent(row, codec));
}

/**
 * The committed events of many streams after the versions given, stream by stream in version
 * order, in one query (a projection rebuild's catch-up). No snapshot filter is needed: the
 * committed events of a stream are always a gap-free prefix of it, as each append waits for the
 * version before it.
 */
export async function readStreamsAfter(
  db: DataSource | QueryRunner,
  streams: { streamId: string; version: number }[],
  codec?: EventCodec,
): Promise<RecordedEvent[]> {
  if (!streams.length) return [];
  const rows: EventRow[] = await db.query(
    `SELECT ${COLUMNS}
       FROM (SELECT e.* FROM unnest($1::text[], $2::int[]) AS k(stream_id, version)
               JOIN events e ON e.stream_id = k.stream_id AND e.stream_version > k.version) AS events
      ORDER BY stream_id, stream_version`,
    [streams.map((stream) => stream.streamId), streams.map((stream) => stream.version)],
  );
  return rows.map((row) => toRecordedEvent(row, codec));
}
