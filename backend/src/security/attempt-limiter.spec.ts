import { DataSource } from 'typeorm';
import { useTestDataSource } from '../../../test/support/data-source.js';
import { AttemptLimiter } from './attempt-limiter.js';

const WINDOW_MS = 15 * 60 * 1000;

describe('AttemptLimiter (PostgreSQL)', () => {
  let other: DataSource;
  let limiter: AttemptLimiter;
  /** A second limiter on its own connection pool: another API process. */
  let otherProcess: AttemptLimiter;

  // Declared before the database's hooks because after-all hooks run in the order declared: the
  // other pool goes before the database is dropped under it.
  afterAll(async () => {
    await other?.destroy();
  });
  const database = useTestDataSource(10);

  /** Moves a key's window into the past, as if it had run out. */
  const endWindow = (key: string) =>
    database.dataSource.query(
      `UPDATE attempt_counts SET expires_at = now() - interval '1 second' WHERE key = $1`,
      [key],
    );

  beforeAll(async () => {
    other = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    limiter = new AttemptLimiter(database.dataSource);
    otherProcess = new AttemptLimiter(other);
  });

  it('allows up to the limit, then refuses until the window has passed', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await limiter.check('a', 5, WINDOW_MS)).toEqual({ allowed: true, retryAfterSeconds: 0 });
      await limiter.record('a', WINDOW_MS);
    }
    const refused = await limiter.check('a', 5, WINDOW_MS);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    await endWindow('a');
    expect(await limiter.check('a', 5, WINDOW_MS)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    // A new window starts with the next attempt.
    await limiter.record('a', WINDOW_MS);
    expect((await limiter.check('a', 1, WINDOW_MS)).allowed).toBe(false);
    expect((await limiter.check('a', 2, WINDOW_MS)).allowed).toBe(true);
  });

  it('counts per key, shares counts between processes, and clear() forgets a key', async () => {
    for (let attempt = 0; attempt < 3; attempt++) await limiter.record('b', WINDOW_MS);
    expect((await otherProcess.check('b', 3, WINDOW_MS)).allowed).toBe(false);
    expect((await otherProcess.check('c', 3, WINDOW_MS)).allowed).toBe(true);
    await otherProcess.clear('b');
    expect((await limiter.check('b', 3, WINDOW_MS)).allowed).toBe(true);
  });

  it('consume() counts and judges atomically, even from several processes at once', async () => {
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 ? limiter : otherProcess).consume('d', 7, WINDOW_MS),
      ),
    );
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(7);
    for (const verdict of verdicts.filter((v) => !v.allowed))
      expect(verdict.retryAfterSeconds).toBeGreaterThan(0);
    const [{ expires_at: before }] = await database.dataSource.query(
      `SELECT expires_at FROM attempt_counts WHERE key = 'd'`,
    );
    await limiter.consume('d', 7, WINDOW_MS);
    const [{ expires_at: after }] = await database.dataSource.query(
      `SELECT expires_at FROM attempt_counts WHERE key = 'd'`,
    );
    expect(after).toEqual(before); // refused attempts do not push the window out
  });

  it('purges the counts whose window has ended and keeps the others', async () => {
    await limiter.record('old', WINDOW_MS);
    await limiter.record('live', WINDOW_MS);
    await endWindow('old');
    expect(await limiter.purgeExpired()).toBeGreaterThanOrEqual(1);
    const keys: { key: string }[] = await database.dataSource.query('SELECT key FROM attempt_counts');
    expect(keys.map((row) => row.key)).toContain('live');
    expect(keys.map((row) => row.key)).not.toContain('old');
  });
});
