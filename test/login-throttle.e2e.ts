import { Client } from 'pg';
import { requestFrom } from './support/from-address';
import { startTestApp, type TestApp } from './support/test-app';

/** api.md Security, "Login throttling". */
const INVALID_LOGIN = { error: 'Invalid username or password.' };
const THROTTLED_15 = { error: 'Too many sign-in attempts. Try again in 15 minute(s).' };

describe('sign-in throttling per username and client address', () => {
  let lab: TestApp;
  /** Behind a trusted proxy (loopback here), so X-Forwarded-For names the client. */
  let proxied: TestApp;

  beforeAll(async () => {
    [lab, proxied] = await Promise.all([startTestApp(), startTestApp({ TRUST_PROXY: 'loopback' })]);
  });
  afterAll(async () => {
    await Promise.all([lab?.close(), proxied?.close()]);
  });

  /**
   * Each test is its own client (a loopback address of its own), so that the per-address limit
   * (api.md Accounts, tested in accounts-throttle.e2e.ts) never adds up across tests.
   */
  let client = '127.0.0.1';
  let nextClient = 10;
  beforeEach(() => {
    client = `127.0.0.${nextClient++}`;
  });

  const login = (app: TestApp, username: string, password: string, from?: string) =>
    requestFrom(
      client,
      `${app.apiUrl}/auth/login`,
      'POST',
      { username, password },
      from ? { 'x-forwarded-for': from } : {},
    );

  const failFiveTimes = async (app: TestApp, username: string, from?: string) => {
    for (let attempt = 1; attempt <= 5; attempt++)
      expect(await login(app, username, `wrong-${attempt}`, from)).toMatchObject({
        status: 401,
        body: INVALID_LOGIN,
      });
  };

  it('answers 429 with the exact text and Retry-After after 5 failures, the right password included', async () => {
    await failFiveTimes(lab, 'tech');
    for (const password of ['wrong-6', 'demo']) {
      const answer = await login(lab, 'tech', password);
      expect(answer).toMatchObject({ status: 429, body: THROTTLED_15 });
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
    // The username is one however it is spelled.
    expect((await login(lab, ' TECH ', 'demo')).status).toBe(429);
  });

  it('leaves other users from the same address alone', async () => {
    await failFiveTimes(lab, 'designer');
    expect((await login(lab, 'designer', 'demo')).status).toBe(429);
    expect((await login(lab, 'rep', 'demo')).status).toBe(200);
  });

  it('a success clears the count', async () => {
    for (let attempt = 1; attempt <= 4; attempt++)
      expect((await login(lab, 'dr.lee', 'nope')).status).toBe(401);
    expect((await login(lab, 'dr.lee', 'demo')).status).toBe(200);
    await failFiveTimes(lab, 'dr.lee');
    expect((await login(lab, 'dr.lee', 'demo')).status).toBe(429);
  });

  it('allows the pair again once the window has passed, and says the minutes left', async () => {
    await failFiveTimes(lab, 'dr.patel');
    const database = new Client({ connectionString: lab.databaseUrl });
    await database.connect();
    try {
      // Time passing, without waiting for it: the window ends in 61 s, then has ended.
      await database.query(
        `UPDATE attempt_counts SET expires_at = now() + interval '61 seconds' WHERE key LIKE 'sign-in:dr.patel|%'`,
      );
      const soon = await login(lab, 'dr.patel', 'demo');
      expect(soon).toMatchObject({
        status: 429,
        body: { error: 'Too many sign-in attempts. Try again in 2 minute(s).' },
      });
      expect(Number(soon.headers.get('retry-after'))).toBeLessThanOrEqual(61);
      await database.query(
        `UPDATE attempt_counts SET expires_at = now() - interval '1 second' WHERE key LIKE 'sign-in:dr.patel|%'`,
      );
    } finally {
      await database.end();
    }
    expect((await login(lab, 'dr.patel', 'demo')).status).toBe(200);
  });

  it('believes X-Forwarded-For only from a proxy named in TRUST_PROXY', async () => {
    // Untrusted: every attempt comes from the socket's address whatever the header says.
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await login(lab, 'admin', 'wrong', `203.0.113.${attempt}`)).status).toBe(401);
    expect((await login(lab, 'admin', 'demo', '203.0.113.99')).status).toBe(429);

    // Trusted proxy: the forwarded address is the client, so other clients are unaffected.
    await failFiveTimes(proxied, 'admin', '198.51.100.7');
    expect((await login(proxied, 'admin', 'demo', '198.51.100.7')).status).toBe(429);
    expect((await login(proxied, 'admin', 'demo', '198.51.100.8')).status).toBe(200);
    expect((await login(proxied, 'admin', 'demo')).status).toBe(200);
  });

  it('counts a burst of parallel guesses: no more than 5 are verified', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => login(lab, 'rep', `guess-${index}`, undefined)),
    );
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(7);
  });
});
