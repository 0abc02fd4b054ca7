import type { Queryable } from '../common/hash-chain.js';
import { EVENT_HEAD_SQL, sha256Hex } from './audit-chain.js';

/**
 * What a line of `GET /events/export` carries for the offline check (README.md, "Verifying
 * offline"): the row as stored, in the seal's canonical form, and its seal. `data` is the stored
 * data text, left out when the line leaves a secret out (then `dataSha256` stands for it).
 */
export interface StoredRow {
  /** The seal's place in the chain; null while the event is not sealed yet. */
  seq: number | null;
  head: string;
  data?: string;
  dataSha256: string;
  chain: string | null;
  /** Base64 Ed25519 signature of the seal. */
  signature: string | null;
}

/** The stored rows and seals of the given events, by global position. */
export async function storedRowsOf(db: Queryable, positions: string[]): Promise<Map<string, StoredRow>> {
  const rows: {
    position: string;
    head: string;
    data: string;
    seq: string | null;
    chain_hash: Buffer | null;
    signature: Buffer | null;
  }[] = await db.query(
    `SELECT e.global_position::text AS position, ${EVENT_HEAD_SQL} AS head, e.data::text AS data,
            s.seq::text, s.chain_hash, s.signature
       FROM events e LEFT JOIN audit_chain s ON s.global_position = e.global_position
      WHERE e.global_position = ANY($1::bigint[])`,
    [positions],
  );
  return new Map(
    rows.map((row) => [
      row.position,
      {
        seq: row.seq === null ? null : Number(row.seq),
        head: row.head,
        data: row.data,
        dataSha256: sha256Hex(row.data),
        chain: row.chain_hash?.toString('hex') ?? null,
        signature: row.signature?.toString('base64') ?? null,
      },
    ]),
  );
}

/** An export line with its stored row; without the data text when the line left a secret out. */
export function withStoredRow<T extends { position: string; redacted?: string[] }>(
  line: T,
  stored: StoredRow | undefined,
): T & { stored?: StoredRow } {
  if (!stored) return line;
  if (!line.redacted) return { ...line, stored };
  const { data: _secret, ...withoutData } = stored;
  return { ...line, stored: withoutData };
}
