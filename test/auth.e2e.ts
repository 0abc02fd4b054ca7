import { startTestApp, type TestApp } from './support/test-app';
import { ApiClient } from './support/http';
import { failOnSecretsInAnswers } from './support/no-secrets';
import { sql } from './support/helpers';

failOnSecretsInAnswers();

const NOT_SIGNED_IN = { error: 'Not signed in.' };
const INVALID_LOGIN = { error: 'Invalid username or password.' };

/** Every endpoint of the Auth, Users and Cases tables that needs a session. */
const PROTECTED: [method: string, path: string, body?: unknown][] = [
  ['GET', '/auth/me'],
  ['POST', '/auth/logout'],
  ['POST', '/auth/logout-everywhere'],
  ['POST', '/users/rep/sessions/end'],
  ['GET', '/users'],
  ['GET', '/users/admin'],
  ['POST', '/users', { username: 'intruder', password: 'x', role: 'Manager' }],
  ['PUT', '/users/admin', { password: 'owned' }],
  ['DELETE', '/users/rep'],
  ['GET', '/cases'],
  ['GET', '/cases/CA-2024-001'],
  ['GET', '/cases/CA-2024-001/history'],
  ['GET', '/dashboard'],
  ['POST', '/cases', { patientName: 'P', doctorName: 'D', clinicName: 'C' }],
  ['PUT', '/cases/CA-2024-001', { patientName: 'Changed' }],
  ['DELETE', '/cases/CA-2024-001'],
  ['POST', '/cases/CA-2024-002/approve', { doctorUsername: 'dr.lee' }],
  ['POST', '/cases/CA-2024-002/reject', { reason: 'no' }],
  ['POST', '/cases/CA-2024-001/advance', {}],
  ['POST', '/cases/CA-2024-003/doctor-approve', {}],
  ['POST', '/cases/CA-2024-003/request-changes', { comment: 'no' }],
  ['POST', '/cases/CA-2024-001/hold', {}],
  ['POST', '/cases/CA-2024-001/resume', {}],
  ['POST', '/cases/CA-2024-001/notes', { text: 'hello' }],
  ['PUT', '/cases/CA-2024-001/pricing', { price: 1 }],
  ['PUT', '/cases/CA-2024-001/simulation', { simulationVideoUrl: 'https://x.example' }],
  ['PUT', '/cases/CA-2024-004/stages/Thermoforming/assignee', { assignee: 'tech' }],
  ['POST', '/cases/CA-2024-004/qr', {}],
  ['POST', '/cases/CA-2024-077/staging/5/start', {}],
  ['POST', '/cases/CA-2024-077/staging/4/complete', {}],
  ['POST', '/cases/CA-2024-077/staging/3/reopen', {}],
  ['POST', '/cases/CA-2024-077/staging/3/reset', {}],
  ['POST', '/scan', { payload: 'CA-2024-001' }],
];

/** `af_session=<token>` from a Set-Cookie header, ready to send back as a Cookie header. */
function sessionCookie(setCookie: string | null): string {
  const pair = setCookie?.split(';')[0] ?? '';
  expect(pair).toMatch(/^af_session=[^;\s]+$/);
  return pair;
}

describe('auth over HTTP', () => {
  let lab: TestApp;
  let anonymous: ApiClient;

  beforeAll(async () => {
    lab = await startTestApp();
    anonymous = lab.anonymous;
  });
  afterAll(() => lab.close());

  const login = (body: unknown) => anonymous.post('/auth/login', body);

  describe('POST /auth/login', () => {
    it('answers the public user and a token, and sets an httpOnly SameSite=Lax session cookie', async () => {
      const answer = await login({ username: 'admin', password: 'demo' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        user: {
          username: 'admin',
          role: 'Manager',
          email: null,
          activationSoundEnabled: true,
          notify: { push: true, email: true },
        },
        token: expect.any(String),
      });
      expect(answer.body.token.length).toBeGreaterThanOrEqual(32);
      // The session cookie alone (the known-device cookie follows it: api.md Accounts).
      const setCookie =
        answer.headers.getSetCookie().find((cookie) => cookie.startsWith('af_session=')) ?? '';
      expect(setCookie).toMatch(/^af_session=/);
      expect(setCookie).toMatch(/;\s*HttpOnly/i);
      expect(setCookie).toMatch(/;\s*SameSite=Lax/i);
      expect(setCookie).toMatch(/;\s*Path=\//i);
      // Without remember-me it is a browser-session cookie.
      expect(setCookie).not.toMatch(/Expires=/i);
      expect(sessionCookie(setCookie)).toBe(`af_session=${answer.body.token}`);
    });

    it('matches the username in any letter case and answers its stored spelling', async () => {
      for (const username of ['ADMIN', 'Dr.Lee', '  rep  ']) {
        const answer = await login({ username, password: 'demo' });
        expect(answer.status).toBe(200);
        expect(answer.body.user.username).toBe(username.trim().toLowerCase());
      }
    });

    it('matches the password exactly', async () => {
      // Spread over two users: five failures of one user would throttle its later sign-ins.
      for (const [username, password] of [
        ['admin', 'DEMO'],
        ['admin', 'Demo'],
        ['admin', 'demo '],
        ['designer', ' demo'],
        ['designer', 'dem'],
      ]) {
        expect(await login({ username, password })).toMatchObject({
          status: 401,
          body: INVALID_LOGIN,
        });
      }
    });

    it('gives one message for an unknown user and a wrong password', async () => {
      const unknown = await login({ username: 'nobody', password: 'demo' });
      const wrong = await login({ username: 'tech', password: 'wrong' });
      expect(unknown).toMatchObject({ status: 401, body: INVALID_LOGIN });
      expect(wrong).toMatchObject({ status: 401, body: INVALID_LOGIN });
      expect(unknown.headers.get('set-cookie')).toBeNull();
    });

    it('keeps a remembered session in a cookie with an expiry about 30 days out', async () => {
      const answer = await login({ username: 'rep', password: 'demo', rememberMe: true });
      expect(answer.status).toBe(200);
      const expires = /Expires=([^;]+)/i.exec(answer.headers.get('set-cookie') ?? '')?.[1];
      expect(expires).toBeDefined();
      const days = (Date.parse(expires!) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29);
      expect(days).toBeLessThan(31);
    });

    it('refuses missing or mistyped credentials with 400', async () => {
      for (const body of [
        {},
        { username: 'admin' },
        { password: 'demo' },
        { username: 1, password: 'demo' },
        { username: 'admin', password: '' },
      ]) {
        const answer = await login(body);
        expect(answer.status).toBe(400);
        expect(typeof answer.body.error).toBe('string');
      }
      expect((await login({ username: 'admin', password: 'demo', rememberMe: 'yes' })).status).toBe(400);
    });
  });

  describe('sessions', () => {
    it('accepts the token as a bearer token', async () => {
      const { body } = await login({ username: 'designer', password: 'demo' });
      const me = await new ApiClient(lab.apiUrl, body.token).get('/auth/me');
      expect(me).toMatchObject({ status: 200, body: { user: { username: 'designer', role: 'Designer' } } });
    });

    it('accepts the cookie sent back as a Cookie header', async () => {
      const answer = await login({ username: 'dr.lee', password: 'demo' });
      const cookie = sessionCookie(answer.headers.get('set-cookie'));
      const me = await anonymous.get('/auth/me', { cookie });
      expect(me.status).toBe(200);
      expect(me.body).toEqual({
        expiresAt: expect.any(String),
        mfa: { totp: false, passkeys: 0, required: false },
        user: {
          username: 'dr.lee',
          role: 'Doctor',
          email: null,
          activationSoundEnabled: true,
          notify: { push: true, email: true },
        },
      });
      expect((await anonymous.get('/cases', { cookie })).status).toBe(200);
    });

    it('refuses an unknown or malformed token', async () => {
      for (const authorization of ['Bearer nonsense', 'Bearer ', 'Basic YWRtaW46ZGVtbw==', 'bearer']) {
        expect(await anonymous.get('/auth/me', { authorization })).toMatchObject({
          status: 401,
          body: NOT_SIGNED_IN,
        });
      }
      expect(await anonymous.get('/auth/me', { cookie: 'af_session=forged' })).toMatchObject({
        status: 401,
        body: NOT_SIGNED_IN,
      });
    });

    it('logout ends a cookie session server-side: 204, then 401', async () => {
      const answer = await login({ username: 'tech', password: 'demo' });
      const cookie = sessionCookie(answer.headers.get('set-cookie'));
      const logout = await anonymous.request('POST', '/auth/logout', undefined, { cookie });
      expect(logout.status).toBe(204);
      expect(logout.headers.get('set-cookie')).toMatch(/^af_session=;/);
      // Replaying the old cookie does not bring the session back, and the token is dead too.
      expect(await anonymous.get('/auth/me', { cookie })).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      expect((await new ApiClient(lab.apiUrl, answer.body.token).get('/auth/me')).status).toBe(401);
    });

    it('logout ends a bearer session server-side: 204, then 401 for token and cookie alike', async () => {
      const answer = await login({ username: 'tech', password: 'demo' });
      const cookie = sessionCookie(answer.headers.get('set-cookie'));
      const client = new ApiClient(lab.apiUrl, answer.body.token);
      expect((await client.post('/auth/logout')).status).toBe(204);
      expect(await client.get('/auth/me')).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      expect(await client.get('/cases')).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      expect((await anonymous.get('/auth/me', { cookie })).status).toBe(401);
      expect((await client.post('/auth/logout')).status).toBe(401);
    });

    it('logout ends only its own session', async () => {
      const first = await lab.login('designer');
      const second = await lab.login('designer');
      expect((await first.post('/auth/logout')).status).toBe(204);
      expect((await first.get('/auth/me')).status).toBe(401);
      expect((await second.get('/auth/me')).status).toBe(200);
    });

    it('a request without a body or content type still logs out', async () => {
      const { token } = (await login({ username: 'rep', password: 'demo' })).body;
      const response = await fetch(`${lab.apiUrl}/auth/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(204);
      expect((await new ApiClient(lab.apiUrl, token).get('/auth/me')).status).toBe(401);
    });
  });

  describe('sessions remembered by the API process', () => {
    it('refuses a logged-out token at once, though the session was just used', async () => {
      const client = await lab.login('tech');
      expect((await client.get('/auth/me')).status).toBe(200);
      expect((await client.get('/cases')).status).toBe(200);
      expect((await client.post('/auth/logout')).status).toBe(204);
      expect(await client.get('/cases')).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
    });

    it("ends a deleted user's sessions and applies a role change at once", async () => {
      const admin = await lab.login('admin');
      for (const username of ['gone.soon', 'promoted.soon'])
        expect(
          (await admin.post('/users', { username, password: 'Molar-Quartz-77', role: 'Doctor' })).status,
        ).toBe(201);
      const gone = await lab.login('gone.soon', 'Molar-Quartz-77');
      const promoted = await lab.login('promoted.soon', 'Molar-Quartz-77');
      expect((await gone.get('/auth/me')).status).toBe(200);
      expect((await promoted.get('/users')).status).toBe(403);

      expect((await admin.delete('/users/gone.soon')).status).toBe(204);
      expect(await gone.get('/auth/me')).toMatchObject({ status: 401, body: NOT_SIGNED_IN });

      expect((await admin.put('/users/promoted.soon', { role: 'Manager' })).status).toBe(200);
      expect((await promoted.get('/users')).status).toBe(200);
      expect((await admin.delete('/users/promoted.soon')).status).toBe(204);
    });
  });

  describe('GET /auth/me', () => {
    it('answers the signed-in user for every role', async () => {
      for (const [username, role] of [
        ['admin', 'Manager'],
        ['rep', 'Representative'],
        ['designer', 'Designer'],
        ['tech', 'Technician'],
        ['dr.lee', 'Doctor'],
        ['dr.patel', 'Doctor'],
      ]) {
        const me = await (await lab.login(username)).get('/auth/me');
        expect(me.status).toBe(200);
        expect(me.body).toEqual({
          expiresAt: expect.any(String),
          mfa: { totp: false, passkeys: 0, required: false },
          user: {
            username,
            role,
            email: null,
            activationSoundEnabled: true,
            notify: { push: true, email: true },
          },
        });
      }
    });

    it('answers 401 without a session', async () => {
      expect(await anonymous.get('/auth/me')).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
    });

    it("carries the session's end: the idle window from its last use, or its absolute end if sooner", async () => {
      const endOf = async (client: ApiClient) => Date.parse((await client.get('/auth/me')).body.expiresAt);
      const plain = await lab.login('rep');
      const since = Date.now();
      // Without Remember Me: SESSION_IDLE_MINUTES (30) after the last use.
      expect(Math.abs((await endOf(plain)) - (since + 30 * 60_000))).toBeLessThan(60_000);
      const remembered = await login({ username: 'rep', password: 'demo', rememberMe: true });
      const rememberedClient = new ApiClient(lab.apiUrl, remembered.body.token);
      // Remember Me: 7 days unused.
      expect(Math.abs((await endOf(rememberedClient)) - (since + 7 * 24 * 3_600_000))).toBeLessThan(60_000);
      // Its absolute end, when that comes first.
      await sql(
        lab.databaseUrl,
        `UPDATE sessions SET expires_at = now() + interval '5 minutes' WHERE username_key = 'rep' AND NOT remember`,
      );
      expect(Math.abs((await endOf(plain)) - (since + 5 * 60_000))).toBeLessThan(60_000);
    });
  });

  describe('without a session', () => {
    let before: [string, number][];
    beforeAll(async () => {
      const cases = (await (await lab.login('admin')).get('/cases')).body as {
        id: string;
        version: number;
      }[];
      before = cases.map((c) => [c.id, c.version]);
    });

    // Objects, not rows: a row shorter than the callback's parameters would make jest pass `done`.
    it.each(PROTECTED.map(([method, path, body]) => ({ method, path, body })))(
      '$method $path answers 401 { error }',
      async ({ method, path, body }) => {
        const answer = await anonymous.request(method, path, body);
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual(NOT_SIGNED_IN);
      },
    );

    it('left every case and user as it was', async () => {
      const admin = await lab.login('admin');
      const cases = (await admin.get('/cases')).body as { id: string; version: number }[];
      expect(cases.map((c) => [c.id, c.version]).sort()).toEqual(before.sort());
      expect(before.map(([id]) => id).sort()).toEqual([
        'CA-2024-001',
        'CA-2024-002',
        'CA-2024-003',
        'CA-2024-004',
        'CA-2024-077',
        // The demo's billing cases (sample-data: invoices in every state).
        'CA-2024-101',
        'CA-2024-102',
        'CA-2024-103',
        'CA-2024-104',
      ]);
      const users = (await admin.get('/users')).body as { username: string }[];
      expect(users.map((user) => user.username)).toEqual([
        'admin',
        'designer',
        'dr.lee',
        'dr.patel',
        'rep',
        'tech',
      ]);
      expect((await login({ username: 'admin', password: 'demo' })).status).toBe(200);
    });

    it('the public endpoints need no session', async () => {
      expect(await anonymous.get('/health')).toMatchObject({ status: 200, body: { status: 'ok', db: 'up' } });
    });
  });
});
