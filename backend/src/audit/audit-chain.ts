import { createHash } from 'node:crypto';

/** The chain_hash before the first seal: 32 zero bytes. */
export const GENESIS = Buffer.alloc(32);

/**
 * SQL: the sha256 of an event row `e` as its seal records it (migrations/012_audit_seals.sql,
 * audit_event_text). Computed by PostgreSQL, next to the data: the row never travels to Node.
 */
export const EVENT_HASH_SQL = `sha256(convert_to(audit_event_text(e), 'UTF8'))`;

/** chain_hash = sha256(previous chain_hash || event_hash). */
export function chainHash(previous: Buffer, eventHash: Buffer): Buffer {
  return createHash('sha256').update(previous).update(eventHash).digest();
}

/**
 * The answer of `GET /audit/verify` and `npm run verify-log` (api.md, Security). `headHash` is the
 * chain_hash of the last seal checked: recorded outside the database, it anchors the chain.
 */
export interface VerifyResult {
  ok: boolean;
  /** Sealed events checked. */
  events: number;
  /** Global position of the first event that no longer matches its seal, else null. */
  firstBroken: string | null;
  headHash: string | null;
}
