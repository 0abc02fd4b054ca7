import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { CACHED_KEYS, CaseKeys } from './case-keys.js';
import { masterKeyFrom } from './master-key.js';

/** More cases than CaseKeys caches: using their keys evicts every key used before them. */
const MORE_THAN_CACHED = 50_001;

/**
 * A `case_keys` table that makes every key asked for (none exists yet), counting the queries:
 * a key found without a query is one a transaction can seal with on its own connection alone.
 */
function tableMakingEveryKey() {
  const queries: string[] = [];
  const dataSource = {
    query: async (sql: string, params: unknown[]) => {
      queries.push(sql);
      if (sql.startsWith('DELETE')) return [];
      const input: { case_id: string }[] = JSON.parse(params[0] as string);
      return input.map(({ case_id }) => ({ case_id, wrapped_key: null, master_key_id: null, made: true }));
    },
  };
  return { dataSource: dataSource as unknown as DataSource, queries };
}

describe('CaseKeys.hold: keys kept at hand for a transaction about to seal with them', () => {
  const others = Array.from({ length: MORE_THAN_CACHED }, (_, index) => `CA-2031-${index}`);

  it('finds a held key without a query after the cache evicted it, until released', async () => {
    const { dataSource, queries } = tableMakingEveryKey();
    const keys = new CaseKeys(dataSource, masterKeyFrom(randomBytes(32)));
    const release = await keys.hold(['CA-2030-1']);
    const [held] = (await keys.keysFor(['CA-2030-1'])).values();
    await keys.keysFor(others);
    const asked = queries.length;

    expect((await keys.keysFor(['CA-2030-1'])).get('CA-2030-1')).toBe(held);
    expect(queries.length).toBe(asked);

    release();
    await keys.keysFor(['CA-2030-1']);
    expect(queries.length).toBe(asked + 1);
  });

  it('lets an erasure destroy a held key: the next use asks the table', async () => {
    const { dataSource, queries } = tableMakingEveryKey();
    const keys = new CaseKeys(dataSource, masterKeyFrom(randomBytes(32)));
    await keys.hold(['CA-2030-1']);
    await keys.destroy('CA-2030-1');
    const asked = queries.length;

    await keys.keysFor(['CA-2030-1']);
    expect(queries.length).toBe(asked + 1);
  });
});

describe('CaseKeys cache', () => {
  it('keeps at most CACHED_KEYS keys, the least recently used going first', async () => {
    const { dataSource, queries } = tableMakingEveryKey();
    const keys = new CaseKeys(dataSource, masterKeyFrom(randomBytes(32)));
    const ids = Array.from({ length: CACHED_KEYS + 1 }, (_, index) => `CA-2032-${index}`);
    // One key used again just before the cache overflows: it is no longer among the oldest.
    await keys.keysFor(ids.slice(0, CACHED_KEYS));
    await keys.keysFor([ids[0]]);
    const beforeOverflow = queries.length;
    await keys.keysFor([ids[CACHED_KEYS]]);
    expect(queries.length).toBe(beforeOverflow + 1);

    // The newest, and the one used again, are still cached: found without a query.
    const cachedBefore = queries.length;
    await keys.keysFor([ids[CACHED_KEYS], ids[0], ids[CACHED_KEYS - 1]]);
    expect(queries.length).toBe(cachedBefore);
    // The oldest used are gone: asking for one is a query.
    await keys.keysFor([ids[1]]);
    expect(queries.length).toBe(cachedBefore + 1);
  });
});

describe('CaseKeys.keysFor: many new keys', () => {
  it('makes them in several statements and answers every one', async () => {
    const { dataSource, queries } = tableMakingEveryKey();
    const keys = new CaseKeys(dataSource, masterKeyFrom(randomBytes(32)));
    const ids = Array.from({ length: 12_000 }, (_, index) => `CA-2033-${index}`);
    const made = await keys.keysFor(ids);
    expect(queries.length).toBe(3);
    expect([...made.keys()].sort()).toEqual([...ids].sort());
    expect(new Set([...made.values()].map((key) => key.toString('hex'))).size).toBe(ids.length);
  });

  it('fails as a whole when one statement fails, and sends none after it', async () => {
    const queries: string[] = [];
    const dataSource = {
      query: async (sql: string, params: unknown[]) => {
        queries.push(sql);
        if (queries.length === 2) throw new Error('connection lost');
        const input: { case_id: string }[] = JSON.parse(params[0] as string);
        return input.map(({ case_id }) => ({ case_id, wrapped_key: null, master_key_id: null, made: true }));
      },
    } as unknown as DataSource;
    const keys = new CaseKeys(dataSource, masterKeyFrom(randomBytes(32)));
    const ids = Array.from({ length: 12_000 }, (_, index) => `CA-2034-${index}`);
    await expect(keys.keysFor(ids)).rejects.toThrow('connection lost');
    expect(queries.length).toBe(2);
    // Nothing of the failed call is cached: the first key is asked for again.
    await keys.keysFor([ids[0]]);
    expect(queries.length).toBe(3);
  });
});
