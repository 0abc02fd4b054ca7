import { hash } from 'node:crypto';
import type { CaseVerification } from '@alignerflow/domain';
import { chainHash, EVENT_HASH_SQL, GENESIS, type VerifyResult } from './audit-chain.js';

/** What the verifier needs of a database: TypeORM's DataSource (a pool) fits. */
export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, params?: unknown[]): Promise<any[]>;
}

/** Seals per query: one row of 64 bytes each comes back (~3 MB), so Node parses almost nothing. */
const RANGE = 20_000;
/** Ranges checked at once: PostgreSQL hashing one while Node chains another, on two cores. */
const LANES = 2;
/**
 * 32 zero bytes: the chain's start (GENESIS), and the stand-in for the hash of a sealed event
 * that is gone (no sha256 is all zeros).
 */
const ZERO_HASH_SQL = `'\\x${'00'.repeat(32)}'::bytea`;

/**
 * Checks the hash chain of `audit_seals` against the events (see README.md). Each range of seals
 * is checked from the chain_hash stored just before it, so ranges run in parallel; a break in an
 * earlier range is found by that range, and the first break wins.
 */
export async function verifyLog(db: Queryable): Promise<VerifyResult> {
  const [head]: { seq: string; tx: string; position: string; chain_hash: Buffer }[] = await db.query(
    `SELECT seq::text, transaction_id::text AS tx, global_position::text AS position, chain_hash
       FROM audit_seals ORDER BY audit_seals.seq DESC LIMIT 1`,
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
      'SELECT global_position::text AS position FROM audit_seals WHERE seq = $1',
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
 * the hash of the event as it is now), or null. PostgreSQL returns the range as one bytea:
 * per seal, in seq order, the event's current hash and the seal's chain_hash.
 */
async function firstBreakIn(db: Queryable, from: number, to: number): Promise<number | null> {
  const [row]: { seals: number; pairs: Buffer | null; previous: Buffer | null }[] = await db.query(
    `SELECT count(*)::int AS seals,
            string_agg(coalesce(current.hash, ${ZERO_HASH_SQL}) || s.chain_hash, ''::bytea ORDER BY s.seq) AS pairs,
            (SELECT chain_hash FROM audit_seals WHERE seq = $1::bigint - 1) AS previous
       FROM audit_seals s
       LEFT JOIN LATERAL (SELECT ${EVENT_HASH_SQL} AS hash FROM events e WHERE e.global_position = s.global_position)
         AS current ON true
      WHERE s.seq BETWEEN $1::bigint AND $2::bigint`,
    [from, to],
  );
  // A seal is gone (seq has a gap): find where, seal by seal.
  if (row.seals !== to - from + 1 || (from > 1 && !row.previous)) return firstBreakSealBySeal(db, from, to);
  // previous chain_hash, then per seal its event's hash and its chain_hash: each seal's input,
  // sha256(previous chain_hash || event hash), is the 64 bytes just before its chain_hash.
  const chain = Buffer.concat([row.previous ?? GENESIS, row.pairs!]);
  for (let offset = 0; offset + 64 < chain.length; offset += 64) {
    const expected = hash('sha256', chain.subarray(offset, offset + 64), 'buffer');
    if (!expected.equals(chain.subarray(offset + 64, offset + 96))) return from + offset / 64;
  }
  return null;
}

/** The slow path for a range with missing seals: the first seal that does not follow its predecessor. */
async function firstBreakSealBySeal(db: Queryable, from: number, to: number): Promise<number | null> {
  const rows: { seq: string; hash: Buffer | null; chain_hash: Buffer }[] = await db.query(
    `SELECT s.seq::text, ${EVENT_HASH_SQL} AS hash, s.chain_hash
       FROM audit_seals s LEFT JOIN events e ON e.global_position = s.global_position
      WHERE s.seq BETWEEN $1::bigint - 1 AND $2::bigint ORDER BY s.seq`,
    [from, to],
  );
  let expectedSeq = from - 1;
  let previous: Buffer | null = from === 1 ? GENESIS : null;
  for (const row of rows) {
    const seq = Number(row.seq);
    if (seq === from - 1) {
      previous = row.chain_hash;
      expectedSeq = seq + 1;
      continue;
    }
    if (
      seq !== expectedSeq ||
      !previous ||
      !row.hash ||
      !chainHash(previous, row.hash).equals(row.chain_hash)
    )
      return seq;
    previous = row.chain_hash;
    expectedSeq = seq + 1;
  }
  return null;
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
        AND NOT EXISTS (SELECT FROM audit_seals s WHERE s.global_position = e.global_position)
      ORDER BY e.transaction_id, e.global_position LIMIT 1`,
    [head.tx, head.position],
  );
  return row?.position ?? null;
}

/**
 * One case's events against their seals, without walking the chain: each sealed event's hash,
 * and each of its seals' link to the seal before it. Cheap (the case's rows and as many seals),
 * it proves the case's own trail; only the whole-log check proves the rest of the chain.
 */
export async function verifyCase(db: Queryable, caseId: string): Promise<CaseVerification> {
  const rows: {
    seq: string | null;
    position: string;
    sealed_hash: Buffer | null;
    chain_hash: Buffer | null;
    previous: Buffer | null;
    hash: Buffer | null;
    behind_head: boolean | null;
  }[] = await db.query(
    `WITH head AS (SELECT transaction_id, global_position FROM audit_seals ORDER BY audit_seals.seq DESC LIMIT 1),
     sealed AS (
       SELECT s.seq, s.global_position, s.event_hash, s.chain_hash,
              CASE WHEN s.seq = 1 THEN ${ZERO_HASH_SQL} ELSE p.chain_hash END AS previous
         FROM audit_seals s LEFT JOIN audit_seals p ON p.seq = s.seq - 1
        WHERE s.stream_id = $1),
     current AS (
       SELECT e.global_position, e.transaction_id, ${EVENT_HASH_SQL} AS hash FROM events e WHERE e.stream_id = $1)
     SELECT sealed.seq::text, coalesce(sealed.global_position, current.global_position)::text AS position,
            sealed.event_hash AS sealed_hash, sealed.chain_hash, sealed.previous, current.hash,
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
        row.hash !== null &&
        row.hash.equals(row.sealed_hash!) &&
        row.previous !== null &&
        chainHash(row.previous, row.sealed_hash!).equals(row.chain_hash!);
    }
    if (!intact && firstBroken === null) firstBroken = row.position;
  }
  return { ok: firstBroken === null, caseId, events, unsealed, firstBroken };
}
