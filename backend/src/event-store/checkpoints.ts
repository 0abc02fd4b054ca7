import type { Checkpoint } from './event-types.js';

/** A DataSource or QueryRunner (answers rows), or a pg Client (answers `{rows}`). */
export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, params?: unknown[]): Promise<any>;
}

/** Whether two log keys are the same place (null: the log's start; undefined: unknown, never the same). */
export function sameCheckpoint(a: Checkpoint | null | undefined, b: Checkpoint | null | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (a === null || b === null) return a === b;
  return a.transactionId === b.transactionId && a.position === b.position;
}

/** Where the reader `name` (a projection, the dispatcher) stopped in the log; null: not yet started. */
export async function loadCheckpoint(db: Queryable, name: string): Promise<Checkpoint | null> {
  const result = await db.query(
    'SELECT transaction_id::text, global_position::text FROM projection_checkpoints WHERE name = $1',
    [name],
  );
  const [row]: { transaction_id: string; global_position: string }[] = Array.isArray(result)
    ? result
    : result.rows;
  return row ? { transactionId: row.transaction_id, position: row.global_position } : null;
}

/**
 * Pass the connection of the reader's own writes, so both commit or neither does. `onlyForward`:
 * a checkpoint behind the stored one is not written (a reader that may have lost its lead).
 */
export async function saveCheckpoint(
  db: Queryable,
  name: string,
  checkpoint: Checkpoint,
  { onlyForward = false } = {},
): Promise<void> {
  await db.query(
    `INSERT INTO projection_checkpoints (name, transaction_id, global_position)
     VALUES ($1, $2::xid8, $3::bigint)
     ON CONFLICT (name) DO UPDATE
       SET transaction_id = excluded.transaction_id,
           global_position = excluded.global_position,
           updated_at = now()
     ${
       onlyForward
         ? `WHERE (projection_checkpoints.transaction_id, projection_checkpoints.global_position)
                < (excluded.transaction_id, excluded.global_position)`
         : ''
     }`,
    [name, checkpoint.transactionId, checkpoint.position],
  );
}
