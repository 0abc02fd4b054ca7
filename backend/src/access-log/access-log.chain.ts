import { createHash } from 'node:crypto';
import type { AccessAction, AccessLogVerification } from '@alignerflow/domain';
import { chainHash, GENESIS, type Queryable } from '../common/hash-chain.js';

/** One entry as stored, before or after its seq is known. */
export interface AccessRecord {
  at: Date;
  username: string;
  role: string;
  action: AccessAction;
  detail: string;
  address: string;
  caseId: string | null;
}

/**
 * The text an entry's seal hashes: a JSON array of every stored field, the time as ISO UTC with
 * milliseconds (what a JavaScript Date holds, and timestamptz keeps it exactly). JSON quoting
 * makes the text unambiguous, so no two different entries share one.
 */
export function entryText(seq: number, entry: AccessRecord): string {
  return JSON.stringify([
    seq,
    entry.at.toISOString(),
    entry.username,
    entry.role,
    entry.action,
    entry.detail,
    entry.address,
    entry.caseId,
  ]);
}

export function sealEntry(previous: Buffer, seq: number, entry: AccessRecord): Buffer {
  return chainHash(previous, createHash('sha256').update(entryText(seq, entry), 'utf8').digest());
}

/** Rows read per query while verifying. */
const RANGE = 20_000;

/**
 * Walks the whole chain in seq order and recomputes every seal from the row as it is now: a
 * changed field, a deleted or inserted row (a gap or a repeat in seq) or a rewritten chain_hash
 * breaks it at that row. Like the events' chain, a rewrite of every later seal is only visible
 * against a head recorded outside the database.
 */
export async function verifyAccessLog(db: Queryable): Promise<AccessLogVerification> {
  let previous: Buffer = GENESIS;
  let expectedSeq = 1;
  let entries = 0;
  for (;;) {
    const rows: (Omit<AccessRecord, 'caseId'> & {
      seq: string;
      case_id: string | null;
      chain_hash: Buffer;
    })[] = await db.query(
      `SELECT seq::text, at, username, role, action, detail, address, case_id, chain_hash
           FROM access_log WHERE access_log.seq >= $1 ORDER BY access_log.seq LIMIT ${RANGE}`,
      [expectedSeq],
    );
    for (const row of rows) {
      const seq = Number(row.seq);
      const sealed = sealEntry(previous, seq, { ...row, caseId: row.case_id });
      if (seq !== expectedSeq || !sealed.equals(row.chain_hash))
        return { ok: false, entries, firstBroken: row.seq };
      previous = row.chain_hash;
      expectedSeq++;
      entries++;
    }
    if (rows.length < RANGE) return { ok: true, entries, firstBroken: null };
  }
}
