import type { EventCodec, EventMetadata, NewEvent, RecordedEvent } from './event-types.js';

// ORDER BY must name events.transaction_id: a bare transaction_id would mean this text alias,
// which sorts '10' before '9'. recorded_at comes as toISOString() writes it: no Date to parse.
export const COLUMNS = columns('data', 'metadata');

/**
 * COLUMNS with data and metadata NULL for the rows whose (position, transaction id) is among the
 * parameters `$positions` (bigint[]) and `$transactions` (xid8[]), pairwise: rows the reader holds.
 */
export function columnsWithoutBodiesOf(positions: number, transactions: number): string {
  const held = `(global_position, transaction_id) IN (SELECT * FROM unnest($${positions}::bigint[], $${transactions}::xid8[]))`;
  return columns(
    `CASE WHEN ${held} THEN NULL ELSE data END AS data`,
    `CASE WHEN ${held} THEN NULL ELSE metadata END AS metadata`,
  );
}

function columns(data: string, metadata: string): string {
  return `global_position::text AS position, transaction_id::text AS transaction_id, stream_id,
  stream_version, type, schema_version, ${data}, ${metadata},
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at`;
}

export interface EventRow {
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
export type BatchRow = [string, string, string, number, string, number, unknown, EventMetadata, string];

/** The schema version an event is written with: its own, else the codec's current one, else 1. */
export function schemaVersionOf(event: NewEvent, codec?: EventCodec): number {
  return event.schemaVersion ?? codec?.schemaVersionOf(event.type) ?? 1;
}

/** A stored row as readers see it: with a codec, the data is upcast to the current schema version. */
export function toRecordedEvent(row: EventRow, codec?: EventCodec): RecordedEvent {
  let { data, schema_version: schemaVersion } = row;
  if (codec) {
    const current = codec.schemaVersionOf(row.type);
    if (schemaVersion < current) {
      data = codec.upcast(row.type, schemaVersion, data);
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

export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit <= 0)
    throw new RangeError(`limit must be a positive integer, got ${limit}`);
}
