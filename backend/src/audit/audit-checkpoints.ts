import type { Checkpoint } from './audit-chain.js';
import type { Queryable } from '../common/hash-chain.js';

/** The checkpoints whose global position is after `after`, in chain order, as the API gives them. */
export async function readCheckpoints(db: Queryable, after: string): Promise<Checkpoint[]> {
  const rows: { position: string; head_hash: Buffer; at: Date; signature: Buffer }[] = await db.query(
    `SELECT global_position::text AS position, head_hash, at, signature
       FROM audit_checkpoints WHERE global_position > $1::bigint ORDER BY seq`,
    [after],
  );
  return rows.map((row) => ({
    position: row.position,
    headHash: row.head_hash.toString('hex'),
    at: row.at.toISOString(),
    signature: row.signature.toString('base64'),
  }));
}
