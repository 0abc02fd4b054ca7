import { hash } from 'node:crypto';
import type { CaseVerification } from '@alignerflow/domain';
import { GENESIS, type Queryable } from '../common/hash-chain.js';
import { DATA_SHA256_SQL, EVENT_HEAD_SQL, type VerifyResult } from './audit-chain.js';

/** Seals per query: one row of 64 bytes each comes back (~1.3 MB), so Node parses almost nothing. */
const RANGE = 20_000;
/** Ranges checked at once: PostgreSQL hashing one while Node chains another, on two cores. */
const LANES = 2;
/** 32 zero bytes: the stand-in for the hash of a sealed event that is gone (no sha256 is all zeros). */
const ZERO_HASH_SQL = `'\\x${'00'.repeat(32)}'::bytea`;
/** SQL: an event row `e`'s canonical text (audit-chain.ts, eventText). */
const EVENT_TEXT_SQL = `${EVENT_HEAD_SQL} || E'\\n' || ${DATA_SHA256_SQL}`;

/**
 * Checks the hash chain of `audit_chain` against the events as they are now (see README.md). Each
 * range of seals is checked from the chain_hash stored just before it, so ranges run in parallel;
 * a break in an earlier range is found by that range, and the first break wins.
 */
export async function verifyLog(db: Queryable): Promise<VerifyResult> {
  const [head]: { seq: string; tx: string; position: string; chain_hash: Buffer }[] = await db.query(
    `SELECT seq::text, transaction_id::text AS tx, global_position::text AS position, chain_hash
       FROM audit_chain ORDER BY audit_chain.seq DESC LIMIT 1`,
  );
  if (!head) return { ok: true, events: 0, firstBroken: null, headHash: null };
  const last = Number(head.seq);

  let next = 1;
  let firstBrokenSeq = Infinity;
  const lane = async () => {
    while (next <= last) {
      const from = next;
      const to = Math.min(last, from + RANGE - 1);
      next = to + 1;
      // A break found earlier in the log makes later ranges moot.
      if (from > firstBrokenSeq) return;
      const broken = await firstBreakIn(db, from, to);
      if (broken !== null) firstBrokenSeq = Math.min(firstBrokenSeq, broken);
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));

  let firstBroken: string | null;
  if (firstBrokenSeq !== Infinity) {
    const [seal] = await db.query(
      'SELECT global_position::text AS position FROM audit_chain WHERE seq = $1',
      [firstBrokenSeq],
    );
    firstBroken = seal.position;
  } else {
    firstBroken = await firstUnsealedBehind(db, head, last);
  }
  return { ok: firstBroken === null, events: last, firstBroken, headHash: head.chain_hash.toString('hex') };
}

/**
 * The seq of the first seal in [from, to] whose chain_hash is not sha256(the previous chain_hash ||
 * sha256 of the event's canonical text as it is now), or null. PostgreSQL returns the range as one
 * bytea: per seal, in seq order, the hash of the event's canonical text (built-in functions only;
 * zeros when the event is gone) and the seal's chain_hash, so Node parses almost nothing.
 */
async function firstBreakIn(db: Queryable, from: number, to: number): Promise<number | null> {
  const [row]: { seals: number; pairs: Buffer | null; previous: Buffer | null }[] = await db.query(
    `SELECT count(*)::int AS seals,
            string_agg(coalesce(current.hash, ${ZERO_HASH_SQL}) || s.chain_hash, ''::bytea ORDER BY s.seq) AS pairs,
            (SELECT chain_hash FROM audit_chain WHERE seq = $1::bigint - 1) AS previous
       FROM audit_chain s
       LEFT JOIN LATERAL (SELECT sha256(convert_to(${EVENT_TEXT_SQL}, 'UTF8')) AS hash FROM events e
                           WHERE e.global_position = s.global_position) AS current ON true
      WHERE s.seq BETWEEN $1::bigint AND $2::bigint`,
    [from, to],
  );
  // A seal is gone (seq has a gap), or the one before the range: the first seal of the gap breaks.
  if (row.seals !== to - from + 1 || (from > 1 && !row.previous)) return firstGapSeq(db, from, to);
  // previous chain_hash, then per seal its event's hash and its chain_hash: each seal's input,
  // sha256(previous chain_hash || event hash), is the 64 bytes just before its chain_hash.
  const chain = Buffer.concat([row.previous ?? GENESIS, row.pairs!]);
  for (let offset = 0; offset + 64 < chain.length; offset += 64) {
    const expected = hash('sha256', chain.subarray(offset, offset + 64), 'buffer');
    if (!expected.equals(chain.subarray(offset + 64, offset + 96))) return from + offset / 64;
  }
  return null;
}

/** In a range with missing seals: the seq of the first seal whose predecessor is missing. */
async function firstGapSeq(db: Queryable, from: number, to: number): Promise<number> {
  const [row]: { seq: string }[] = await db.query(
    `SELECT min(s.seq)::text AS seq FROM audit_chain s
      WHERE s.seq BETWEEN $1::bigint AND $2::bigint AND s.seq > 1
        AND NOT EXISTS (SELECT FROM audit_chain p WHERE p.seq = s.seq - 1)`,
    [from, to],
  );
  return row.seq === null ? from : Number(row.seq);
}

/**
 * An event the sealer has passed but that has no seal (written into the past, with an old
 * transaction id): the first such position, or null. A count over the key index first; the
 * anti-join only when the count says there is one.
 */
async function firstUnsealedBehind(
  db: Queryable,
  head: { tx: string; position: string },
  seals: number,
): Promise<string | null> {
  const [{ events }]: { events: number }[] = await db.query(
    `SELECT count(*)::int AS events FROM events
      WHERE (transaction_id, global_position) <= ($1::xid8, $2::bigint)`,
    [head.tx, head.position],
  );
  if (events === seals) return null;
  const [row]: { position: string }[] = await db.query(
    `SELECT e.global_position::text AS position FROM events e
      WHERE (e.transaction_id, e.global_position) <= ($1::xid8, $2::bigint)
        AND NOT EXISTS (SELECT FROM audit_chain s WHERE s.global_position = e.global_position)
      ORDER BY e.transaction_id, e.global_position LIMIT 1`,
    [head.tx, head.position],
  );
  return row?.position ?? null;
}

/**
 * One case's events against their seals, without walking the chain: each of its seals must follow
 * from the seal before it and the event as it is now. Cheap (the case's rows and as many seals),
 * it proves the case's own trail; only the whole-log check proves the rest of the chain.
 */
export async function verifyCase(db: Queryable, caseId: string): Promise<CaseVerification> {
  const rows: {
    seq: string | null;
    position: string;
    chain_hash: Buffer | null;
    previous: Buffer | null;
    text: string | null;
    behind_head: boolean | null;
  }[] = await db.query(
    `WITH head AS (SELECT transaction_id, global_position FROM audit_chain ORDER BY audit_chain.seq DESC LIMIT 1),
     sealed AS (
       SELECT s.seq, s.global_position, s.chain_hash,
              CASE WHEN s.seq = 1 THEN ${ZERO_HASH_SQL} ELSE p.chain_hash END AS previous
         FROM audit_chain s LEFT JOIN audit_chain p ON p.seq = s.seq - 1
        WHERE s.stream_id = $1),
     current AS (
       SELECT e.global_position, e.transaction_id, ${EVENT_TEXT_SQL} AS text FROM events e WHERE e.stream_id = $1)
     SELECT sealed.seq::text, coalesce(sealed.global_position, current.global_position)::text AS position,
            sealed.chain_hash, sealed.previous, current.text,
            (current.transaction_id, current.global_position)
              <= (SELECT transaction_id, global_position FROM head) AS behind_head
       FROM sealed FULL JOIN current ON current.global_position = sealed.global_position
      ORDER BY sealed.seq NULLS LAST, current.transaction_id, current.global_position`,
    [`case-${caseId}`],
  );
  let events = 0;
  let unsealed = 0;
  let firstBroken: string | null = null;
  for (const row of rows) {
    let intact: boolean;
    if (row.seq === null) {
      // Not sealed: either still to come, or slipped in behind the sealer.
      if (!row.behind_head) {
        unsealed++;
        continue;
      }
      intact = false;
    } else {
      events++;
      intact =
        row.text !== null &&
        row.previous !== null &&
        hash('sha256', Buffer.concat([row.previous, hash('sha256', row.text, 'buffer')]), 'buffer').equals(
          row.chain_hash!,
        );
    }
    if (!intact && firstBroken === null) firstBroken = row.position;
  }
  return { ok: firstBroken === null, caseId, events, unsealed, firstBroken };
}
