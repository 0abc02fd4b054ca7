import { hash } from 'node:crypto';
import type { CaseVerification } from '@alignerflow/domain';
import type { Queryable } from '../common/hash-chain.js';
import { DATA_SHA256_SQL, EVENT_HEAD_SQL, type VerifyResult } from './audit-chain.js';

/** Seals per query: PostgreSQL checks them and answers where the first break is. */
const RANGE = 20_000;
/** Ranges checked at once: one PostgreSQL session per core. */
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
 * sha256 of the event's canonical text as it is now), or null. PostgreSQL checks the range with
 * built-in functions only and answers two numbers: each seal's previous chain_hash comes from the
 * stored seal before it (`lag` over the seal key's order, so ranges are independent), and a gone
 * event's hash is NULL, which matches nothing. The events are found by one index range over the
 * range's positions: a join by position alone lets the planner scan the whole log for every range.
 */
async function firstBreakIn(db: Queryable, from: number, to: number): Promise<number | null> {
  const [row]: { seals: number; previous: boolean; broken: string | null }[] = await db.query(
    `WITH seals AS MATERIALIZED (
       SELECT s.seq, s.global_position, s.chain_hash,
              coalesce(lag(s.chain_hash) OVER (ORDER BY s.seq), CASE WHEN s.seq = 1 THEN ${ZERO_HASH_SQL} END) AS previous
         FROM audit_chain s WHERE s.seq BETWEEN $1::bigint - 1 AND $2::bigint),
     span AS (SELECT min(global_position) AS low, max(global_position) AS high FROM seals)
     SELECT count(*) FILTER (WHERE seals.seq >= $1::bigint)::int AS seals,
            bool_or(seals.seq = $1::bigint - 1) AS previous,
            min(seals.seq) FILTER (WHERE seals.seq >= $1::bigint
              AND sha256(seals.previous || sha256(convert_to(${EVENT_TEXT_SQL}, 'UTF8'))) IS DISTINCT FROM seals.chain_hash)::text AS broken
       FROM seals
       LEFT JOIN events e ON e.global_position = seals.global_position
        AND e.global_position BETWEEN (SELECT low FROM span) AND (SELECT high FROM span)`,
    [from, to],
  );
  // A seal is gone (seq has a gap), or the one before the range: the first seal of the gap breaks.
  if (row.seals !== to - from + 1 || (from > 1 && !row.previous)) return firstGapSeq(db, from, to);
  return row.broken === null ? null : Number(row.broken);
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
