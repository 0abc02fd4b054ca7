import type { INestApplication } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { createApp } from '../backend/src/app';
import { hashToken, SESSION_CACHE_MS } from '../backend/src/sessions/sessions.service';
import { loadConfig } from '../backend/src/config/config';
import { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

const NOT_SIGNED_IN = { error: 'Not signed in.' };

/** A second API process on the same database (another instance behind the load balancer). */
async function secondInstance(
  lab: TestApp,
): Promise<{ app: INestApplication; apiUrl: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'af-test-'));
  const config = loadConfig({ DATABASE_URL: lab.databaseUrl, DATA_DIR: dataDir, DEMO_DATA: '1', PORT: '0' });
  const app = await createApp({
    config,
    databaseUrl: lab.databaseUrl,
    logger: false,
    spaDir: '/nonexistent',
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    apiUrl: `http://127.0.0.1:${port}/api`,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('sessions (api.md Security)', () => {
  let lab: TestApp;
  let database: Client;

  beforeAll(async () => {
    lab = await startTestApp();
    database = new Client({ connectionString: lab.databaseUrl });
    await database.connect();
  });
  afterAll(async () => {
    await database?.end();
    await lab?.close();
  });

  /** Moves a session's last use into the past: time passing, without waiting for it. */
  const lastUsedAgo = (client: ApiClient, interval: string) =>
    database.query(`UPDATE sessions SET last_used_at = now() - $2::interval WHERE token_hash = $1`, [
      hashToken(client.token!),
      interval,
    ]);
  const sessionExists = async (client: ApiClient) =>
    (await database.query('SELECT 1 FROM sessions WHERE token_hash = $1', [hashToken(client.token!)]))
      .rowCount === 1;

  describe('POST /auth/logout-everywhere', () => {
    it("ends every session of the caller (204), the calling one included, and nobody else's", async () => {
      const phone = await lab.login('tech');
      const laptop = await lab.login('tech');
      const rep = await lab.login('rep');
      expect((await laptop.get('/auth/me')).status).toBe(200);
      const answer = await phone.post('/auth/logout-everywhere');
      expect(answer.status).toBe(204);
      expect(answer.body).toBeUndefined();
      expect(await phone.get('/auth/me')).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      expect(await laptop.get('/cases')).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      expect((await rep.get('/auth/me')).status).toBe(200);
      expect((await lab.login('tech')).token).toBeTruthy();
    });

    it('clears the session cookie and needs a session', async () => {
      const signedIn = await lab.anonymous.post('/auth/login', { username: 'designer', password: 'demo' });
      const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0];
      const answer = await lab.anonymous.request(
        'POST',
        '/auth/logout-everywhere',
        {},
        {
          cookie,
          origin: new URL(lab.apiUrl).origin,
        },
      );
      expect(answer.status).toBe(204);
      expect(answer.headers.get('set-cookie')).toMatch(/^af_session=;/);
      expect(await lab.anonymous.post('/auth/logout-everywhere')).toMatchObject({
        status: 401,
        body: NOT_SIGNED_IN,
      });
    });
  });

  describe('idle timeout without Remember Me', () => {
    it('ends a session unused for SESSION_IDLE_MINUTES (30 by default); a remembered one stays', async () => {
      const idle = await lab.login('dr.lee');
      const remembered = await lab.anonymous.post('/auth/login', {
        username: 'dr.lee',
        password: 'demo',
        rememberMe: true,
      });
      const rememberedClient = new ApiClient(lab.apiUrl, remembered.body.token);
      const recent = await lab.login('dr.lee');
      await lastUsedAgo(idle, '31 minutes');
      await lastUsedAgo(rememberedClient, '31 minutes');
      await lastUsedAgo(recent, '29 minutes');
      expect(await idle.get('/auth/me')).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      expect((await rememberedClient.get('/auth/me')).status).toBe(200);
      expect((await recent.get('/auth/me')).status).toBe(200);
    });

    it('records the last use at most once a minute per session', async () => {
      const lastUsedAge = async (client: ApiClient) =>
        Number(
          (
            await database.query(
              'SELECT extract(epoch FROM now() - last_used_at) AS age FROM sessions WHERE token_hash = $1',
              [hashToken(client.token!)],
            )
          ).rows[0].age,
        );
      // Used 30 s ago: further use within the minute writes nothing.
      const steady = await lab.login('dr.patel');
      await lastUsedAgo(steady, '30 seconds');
      for (let request = 0; request < 3; request++) expect((await steady.get('/auth/me')).status).toBe(200);
      expect(await lastUsedAge(steady)).toBeGreaterThanOrEqual(30);

      // Used 5 minutes ago: this use is recorded.
      const returning = await lab.login('dr.patel');
      await lastUsedAgo(returning, '5 minutes');
      expect((await returning.get('/auth/me')).status).toBe(200);
      expect(await lastUsedAge(returning)).toBeLessThan(60);
    });
  });

  describe('how often a request asks the database who its session is', () => {
    /** Counts the session lookups this process sends while `work` runs. */
    async function lookupsDuring(work: () => Promise<unknown>): Promise<number> {
      const query = Client.prototype.query;
      let lookups = 0;
      const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (
        this: Client,
        ...args: unknown[]
      ) {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
        if (text?.includes('JOIN user_view u ON u.username_key = s.username_key')) lookups++;
        return (query as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof query);
      try {
        await work();
      } finally {
        spy.mockRestore();
      }
      return lookups;
    }

    it('asks once for many requests that arrive together with one token', async () => {
      const rep = await lab.login('rep');
      await sleep(SESSION_CACHE_MS + 50);
      // The table locked, the first lookup waits: every request arrives while it is under way.
      const locker = new Client({ connectionString: lab.databaseUrl });
      await locker.connect();
      const answers: number[] = [];
      try {
        const lookups = await lookupsDuring(async () => {
          await locker.query('BEGIN');
          await locker.query('LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE');
          const requests = Array.from({ length: 20 }, () => rep.get('/auth/me'));
          await sleep(500);
          await locker.query('COMMIT');
          for (const { status } of await Promise.all(requests)) answers.push(status);
        });
        expect(answers).toEqual(Array(20).fill(200));
        expect(lookups).toBe(1);
      } finally {
        await locker.end();
      }
    });

    it('remembers for a second that a token opens no session, and then asks again', async () => {
      const stale = new ApiClient(lab.apiUrl, 'a-token-of-a-session-that-ended');
      const started = performance.now();
      const lookups = await lookupsDuring(async () => {
        for (let i = 0; i < 10; i++) {
          expect(await stale.get('/auth/me')).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
          expect((await stale.get('/push/vapid-public-key')).status).toBe(200);
        }
      });
      // Once per second the twenty requests took (one, unless the machine is very slow), not once each.
      expect(lookups).toBeLessThanOrEqual(1 + Math.floor((performance.now() - started) / SESSION_CACHE_MS));
      expect(lookups).toBeLessThan(20);
      await sleep(SESSION_CACHE_MS + 50);
      expect(await lookupsDuring(() => stale.get('/auth/me'))).toBe(1);
    });
  });

  describe('across API processes and restarts', () => {
    it("a password change on one instance ends the user's other sessions on another", async () => {
      const admin = await lab.login('admin');
      expect((await admin.post('/users', { username: 'roamer', password: 'Wander-pw-0001' })).status).toBe(
        201,
      );
      const here = await lab.login('roamer', 'Wander-pw-0001');
      const elsewhere = await lab.login('roamer', 'Wander-pw-0001');
      const other = await secondInstance(lab);
      try {
        const onOther = new ApiClient(other.apiUrl, elsewhere.token);
        expect(
          (await here.put('/users/roamer', { password: 'Wander-pw-0002', currentPassword: 'Wander-pw-0001' }))
            .status,
        ).toBe(200);
        expect(await onOther.get('/auth/me')).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
        expect((await new ApiClient(other.apiUrl, here.token).get('/auth/me')).status).toBe(200);
      } finally {
        await other.close();
      }
    });

    it('purges ended and idle sessions at start, keeping the live ones', async () => {
      const live = await lab.login('rep');
      const idle = await lab.login('rep');
      const signedIn = await lab.anonymous.post('/auth/login', {
        username: 'rep',
        password: 'demo',
        rememberMe: true,
      });
      const remembered = new ApiClient(lab.apiUrl, signedIn.body.token);
      const expired = new ApiClient(lab.apiUrl, 'expired-token');
      await lastUsedAgo(idle, '2 hours');
      await lastUsedAgo(remembered, '2 hours');
      await database.query(
        `INSERT INTO sessions (token_hash, username_key, expires_at) VALUES ($1, 'rep', now() - interval '1 minute')`,
        [hashToken(expired.token!)],
      );
      expect(await sessionExists(expired)).toBe(true);
      expect(await sessionExists(idle)).toBe(true);

      const other = await secondInstance(lab);
      await other.close();
      expect(await sessionExists(expired)).toBe(false);
      expect(await sessionExists(idle)).toBe(false);
      expect(await sessionExists(live)).toBe(true);
      expect(await sessionExists(remembered)).toBe(true);
      expect((await live.get('/auth/me')).status).toBe(200);
      expect((await remembered.get('/auth/me')).status).toBe(200);
    });
  });
});
