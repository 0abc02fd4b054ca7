import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';
import type { MasterKey } from './master-key.js';
import { freshIv } from './random-ivs.js';

/** Unwrapped keys kept per process; past this many the oldest used go first. */
export const CACHED_KEYS = 50_000;
/**
 * Keys dropped at once when the cache is full. A Map's deleted entries stay in its table until V8
 * compacts it, and a walk from its start (the oldest key) steps over every one of them: dropping
 * one key per new key walked them each time (docs/performance.md, "The least a restore and a
 * rebuild can cost").
 */
const EVICTED_AT_ONCE = CACHED_KEYS / 10;
const KEY_BYTES = 32;

/** Keys made per statement: the next statement's wraps are made while PostgreSQL inserts these. */
const KEYS_PER_STATEMENT = 5_000;

/** Inserts the wrapped keys of $1 (JSON); answers which were made, and the rows of those that existed. */
const MAKE_KEYS = `WITH input AS (SELECT * FROM json_to_recordset($1::json) AS r(case_id text, wrapped_key text)),
       made AS (
         INSERT INTO case_keys (case_id, wrapped_key, master_key_id)
         SELECT case_id, wrapped_key, $2::text FROM input ON CONFLICT (case_id) DO NOTHING
         RETURNING case_id)
       SELECT case_id, NULL AS wrapped_key, NULL AS master_key_id, true AS made FROM made
       UNION ALL
       SELECT case_id, wrapped_key, master_key_id, false FROM case_keys
        WHERE case_id IN (SELECT case_id FROM input) AND case_id NOT IN (SELECT case_id FROM made)`;

type Db = DataSource | QueryRunner;
type KeyRow = { case_id: string; wrapped_key: string; master_key_id: string };

/**
 * The data key of each case (table `case_keys`, migration 042): 32 random bytes, stored wrapped
 * (AES-256-GCM) under the master key, which never enters the database. Erasing a case deletes its
 * row, and with it every way to read the case's sealed fields.
 *
 * Unwrapped keys are cached per process (a Map in use order). "No key" is not cached: another
 * process may create one at any time (a new case, the start's encryption of an old log), so a
 * read of an erased case asks the table each time.
 *
 * Keys held (`hold`) for a transaction about to seal with them stay at hand, apart from the
 * cache, until it ends.
 */
export class CaseKeys {
  private readonly cache = new Map<string, Buffer>();
  /** Each hold's keys, not evicted: a restore may seal more cases than the cache keeps. */
  private readonly held = new Set<Map<string, Buffer>>();

  constructor(
    private readonly dataSource: DataSource,
    private master: MasterKey,
  ) {}

  get masterKeyId(): string {
    return this.master.id;
  }

  /** The keys of `caseIds`, created for those that have none (a new case, or one erased). */
  async keysFor(caseIds: Iterable<string>): Promise<Map<string, Buffer>> {
    const wanted = [...new Set(caseIds)];
    const keys = new Map<string, Buffer>();
    const missing = wanted.filter((id) => {
      const key = this.cached(id);
      if (key) keys.set(id, key);
      return !key;
    });
    if (!missing.length) return keys;
    // One draw of random bytes for all the new keys, each key a copy of its own slice.
    const random = randomBytes(KEY_BYTES * missing.length);
    const fresh = new Map(
      missing.map((id, index) => [
        id,
        Buffer.from(random.subarray(index * KEY_BYTES, (index + 1) * KEY_BYTES)),
      ]),
    );
    random.fill(0);
    // The keys inserted now (their ids alone: this process holds them already), and the wrapped
    // keys of those that existed, a statement per KEYS_PER_STATEMENT, each one's wraps made while
    // the one before runs. The ids and wraps go as one JSON document: node-pg quotes every element
    // of an array parameter, which costs more than the statement.
    // Committed at once, outside any transaction of the caller: a key this process caches must
    // exist whatever becomes of the append it was made for (an unused key costs a row).
    const rows: (KeyRow & { made: boolean })[] = [];
    let running: Promise<(KeyRow & { made: boolean })[]> | undefined;
    for (let start = 0; start < missing.length; start += KEYS_PER_STATEMENT) {
      const wraps = JSON.stringify(
        missing
          .slice(start, start + KEYS_PER_STATEMENT)
          .map((id) => ({ case_id: id, wrapped_key: this.wrap(fresh.get(id)!) })),
      );
      if (running) for (const row of await running) rows.push(row);
      running = this.dataSource.query(MAKE_KEYS, [wraps, this.master.id]);
      // Awaited above or below; until then a failure must not count as an unhandled rejection.
      running.catch(() => undefined);
      // Let the statement go out before the next one's wraps are made.
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const row of await running!) rows.push(row);
    for (const row of rows.filter((row) => row.made)) {
      keys.set(row.case_id, fresh.get(row.case_id)!);
      this.remember(row.case_id, fresh.get(row.case_id)!);
    }
    const existed = rows.filter((row) => !row.made);
    for (const [id, key] of this.unwrapRows(
      existed.map((row) => row.case_id),
      existed,
    ))
      if (key) keys.set(id, key);
    // A key made by a concurrent writer after this statement's snapshot: read it now.
    const late = missing.filter((id) => !keys.has(id));
    if (late.length) for (const [id, key] of await this.load(late)) if (key) keys.set(id, key);
    return keys;
  }

  /**
   * keysFor, its keys then found without a query until `release` is called, however many others
   * are used meanwhile: for a transaction that will seal with them, which must not need a
   * connection of its own to make or load one (EventStore.withTransactionFor).
   */
  async hold(caseIds: Iterable<string>): Promise<() => void> {
    const keys = await this.keysFor(caseIds);
    this.held.add(keys);
    return () => void this.held.delete(keys);
  }

  /**
   * The keys of `caseIds` that exist; a case without one (erased) maps to null. Unlike making a
   * key, loading one needs no commit of its own: a read in a transaction loads them on its
   * connection (`db`), so that it never waits for a second one while holding the first.
   */
  async existingKeys(
    caseIds: Iterable<string>,
    db: DataSource | QueryRunner = this.dataSource,
  ): Promise<Map<string, Buffer | null>> {
    const keys = new Map<string, Buffer | null>();
    const missing: string[] = [];
    for (const id of new Set(caseIds)) {
      const key = this.cached(id);
      if (key) keys.set(id, key);
      else missing.push(id);
    }
    if (missing.length) for (const [id, key] of await this.load(missing, db)) keys.set(id, key);
    return keys;
  }

  /** Destroys the case's key (erasure): its sealed fields can never be read again. */
  async destroy(caseId: string): Promise<void> {
    await this.dataSource.query('DELETE FROM case_keys WHERE case_id = $1', [caseId]);
    this.cache.delete(caseId);
    for (const keys of this.held) keys.delete(caseId);
  }

  /** Forgets every cached key: after a restore or a rotation the table is the truth again. */
  forget(): void {
    this.cache.clear();
  }

  /** Wraps every key under `next` instead (master key rotation), in one transaction of the caller. */
  async rewrapAll(next: MasterKey, db: Db): Promise<number> {
    const rows: { case_id: string; wrapped_key: string }[] = await db.query(
      'SELECT case_id, wrapped_key FROM case_keys WHERE master_key_id = $1',
      [this.master.id],
    );
    const others: { n: number }[] = await db.query(
      'SELECT count(*)::int AS n FROM case_keys WHERE master_key_id NOT IN ($1, $2)',
      [this.master.id, next.id],
    );
    if (others[0].n)
      throw new Error(
        `${others[0].n} case keys are wrapped under a master key that is neither the old nor the new one`,
      );
    const wraps = rows.map((row) => wrapUnder(next, unwrapUnder(this.master, row.wrapped_key)));
    await db.query(
      `UPDATE case_keys k SET wrapped_key = v.wrapped_key, master_key_id = $3
         FROM unnest($1::text[], $2::text[]) AS v(case_id, wrapped_key) WHERE k.case_id = v.case_id`,
      [rows.map((row) => row.case_id), wraps, next.id],
    );
    this.master = next;
    this.forget();
    return rows.length;
  }

  wrap(key: Buffer): string {
    return wrapUnder(this.master, key);
  }

  private cached(id: string): Buffer | undefined {
    const key = this.cache.get(id);
    if (key !== undefined) {
      // Re-inserted: the Map's order is the use order.
      this.cache.delete(id);
      this.cache.set(id, key);
      return key;
    }
    for (const keys of this.held) {
      const heldKey = keys.get(id);
      if (heldKey) return heldKey;
    }
    return undefined;
  }

  private remember(id: string, key: Buffer | null): void {
    if (!key) return;
    this.cache.set(id, key);
    if (this.cache.size <= CACHED_KEYS) return;
    let excess = this.cache.size - CACHED_KEYS + EVICTED_AT_ONCE;
    for (const oldest of this.cache.keys()) {
      if (excess-- <= 0) break;
      this.cache.delete(oldest);
    }
  }

  private async load(
    ids: string[],
    db: DataSource | QueryRunner = this.dataSource,
  ): Promise<Map<string, Buffer | null>> {
    const rows: KeyRow[] = await db.query(
      'SELECT case_id, wrapped_key, master_key_id FROM case_keys WHERE case_id = ANY($1::text[])',
      [ids],
    );
    return this.unwrapRows(ids, rows);
  }

  /** `ids` mapped to their rows' unwrapped keys (null: no row), remembered in the cache. */
  private unwrapRows(ids: string[], rows: KeyRow[]): Map<string, Buffer | null> {
    const found = new Map<string, Buffer | null>(ids.map((id) => [id, null]));
    for (const row of rows) {
      if (row.master_key_id !== this.master.id)
        throw new Error(
          `The key of case ${row.case_id} is wrapped under master key ${row.master_key_id}, not the configured ${this.master.id} (MASTER_KEY_FILE)`,
        );
      found.set(row.case_id, unwrapUnder(this.master, row.wrapped_key));
    }
    for (const [id, key] of found) this.remember(id, key);
    return found;
  }
}

function wrapUnder(master: MasterKey, key: Buffer): string {
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-gcm', master.key, iv);
  const sealed = Buffer.concat([iv, cipher.update(key), cipher.final(), cipher.getAuthTag()]);
  return sealed.toString('base64');
}

function unwrapUnder(master: MasterKey, wrapped: string): Buffer {
  const raw = Buffer.from(wrapped, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', master.key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
}
