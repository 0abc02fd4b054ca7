import type { DataSource } from 'typeorm';
import type { Checkpoint, EventCodec, RecordedEvent } from './event-types.js';
import {
  checkLimit,
  COLUMNS,
  columnsWithoutBodiesOf,
  toRecordedEvent,
  type EventRow,
} from './stored-rows.js';

/**
 * The events of transactions older than every transaction still running, after `after`, in
 * (transaction_id, global_position) order: the commit-safe order every reader of the whole log
 * follows (see readAll).
 */
export const COMMIT_SAFE_AFTER = `transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  AND (transaction_id, global_position) > ($1::xid8, $2::bigint)`;
export const COMMIT_SAFE_ORDER = 'ORDER BY events.transaction_id, events.global_position';

/** The parameters $1 and $2 of COMMIT_SAFE_AFTER. */
export function afterParams(after: Checkpoint | null): [string, string] {
  return [after?.transactionId ?? '0', after?.position ?? '0'];
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
export async function readAll(
  dataSource: DataSource,
  after: Checkpoint | null,
  limit: number,
  codec?: EventCodec,
): Promise<RecordedEvent[]> {
  checkLimit(limit);
  // ORDER BY must name events.transaction_id: a bare transaction_id would mean COLUMNS' text
  // alias, which sorts '10' before '9'.
  const rows: EventRow[] = await dataSource.query(
    `SELECT ${COLUMNS} FROM events WHERE ${COMMIT_SAFE_AFTER} ${COMMIT_SAFE_ORDER} LIMIT $3`,
    [...afterParams(after), limit],
  );
  return rows.map((row) => toRecordedEvent(row, codec));
}

/**
 * readAll's rows, as stored (no codec), but without the data and metadata of the rows whose keys
 * are in `held` (NULL instead): the reader has them already. The same rows in the same order.
 */
export async function readAllRowsExcept(
  dataSource: DataSource,
  after: Checkpoint | null,
  limit: number,
  held: Checkpoint[],
): Promise<EventRow[]> {
  checkLimit(limit);
  return dataSource.query(
    `SELECT ${columnsWithoutBodiesOf(4, 5)} FROM events WHERE ${COMMIT_SAFE_AFTER} ${COMMIT_SAFE_ORDER} LIMIT $3`,
    [
      ...afterParams(after),
      limit,
      held.map(({ position }) => position),
      held.map(({ transactionId }) => transactionId),
    ],
  );
}

/**
 * Where a batch of `count` events from `after` would end, found without reading the events (the
 * key index alone): the key of the count-th commit-safe event after `after`, or null when fewer
 * follow. Lets a bulk reader start the read after a batch while that batch is still being read;
 * the start is only a guess until the batch ends at that very key.
 */
export async function keyAfter(
  dataSource: DataSource,
  after: Checkpoint | null,
  count: number,
): Promise<Checkpoint | null> {
  const [row]: { transaction_id: string; position: string }[] = await dataSource.query(
    `SELECT transaction_id::text AS transaction_id, global_position::text AS position FROM events
      WHERE ${COMMIT_SAFE_AFTER} ${COMMIT_SAFE_ORDER}
     OFFSET $3 LIMIT 1`,
    [...afterParams(after), count - 1],
  );
  return row ? { transactionId: row.transaction_id, position: row.position } : null;
}
