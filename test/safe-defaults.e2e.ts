import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../backend/src/app';
import { ConfigError, loadConfig } from '../backend/src/config/config';
import { startTestApp, type TestApp } from './support/test-app';

const ADMIN_PASSWORD = 'a-long-lab-secret-77';

/** Starts (and closes again) the app on `databaseUrl` outside demo mode; resolves or rejects as the start does. */
async function startOutsideDemoMode(databaseUrl: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'af-test-'));
  try {
    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      DEMO_DATA: '0',
      ADMIN_PASSWORD,
    });
    const app = await createApp({ config, databaseUrl, logger: false, spaDir: '/nonexistent' });
    await app.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('safe defaults (issue 11, point 4)', () => {
  describe('outside demo mode', () => {
    let lab: TestApp;
    beforeAll(async () => {
      lab = await startTestApp({ DEMO_DATA: '0', ADMIN_PASSWORD });
    });
    afterAll(() => lab?.close());

    it('creates admin with ADMIN_PASSWORD only: neither "demo" nor an empty password signs in', async () => {
      expect((await lab.anonymous.post('/auth/login', { username: 'admin', password: 'demo' })).status).toBe(
        401,
      );
      expect((await lab.anonymous.post('/auth/login', { username: 'admin', password: '' })).status).toBe(400);
      const admin = await lab.login('admin', ADMIN_PASSWORD);
      const users = (await admin.get('/users')).body as { username: string }[];
      expect(users.map((user) => user.username)).toEqual(['admin']);
    });
  });

  describe('a store seeded in demo mode, started later outside demo mode', () => {
    let lab: TestApp;
    beforeAll(async () => {
      lab = await startTestApp();
    });
    afterAll(() => lab?.close());

    it('refuses to start while any user, of any role, still has the demo password, naming each', async () => {
      const admin = await lab.login('admin');
      expect(
        (await admin.post('/users', { username: 'boss', password: 'Quartz-Lantern-42', role: 'Manager' }))
          .status,
      ).toBe(201);
      const start = startOutsideDemoMode(lab.databaseUrl);
      await expect(start).rejects.toThrow(ConfigError);
      await expect(start).rejects.toThrow(
        /^Invalid configuration: DEMO_DATA is off but the users "admin", "designer", "dr.lee", "dr.patel", "rep", "tech" can still sign in with the demo \(or an empty\) password/,
      );
    });

    it('still refuses while one Technician keeps "demo", and starts once nobody does', async () => {
      const admin = await lab.login('admin');
      expect(
        (await admin.put('/users/admin', { password: 'changed-Quartz-pw', currentPassword: 'demo' })).status,
      ).toBe(200);
      for (const username of ['designer', 'dr.lee', 'dr.patel', 'rep'])
        expect((await admin.delete(`/users/${username}`)).status).toBe(204);
      await expect(startOutsideDemoMode(lab.databaseUrl)).rejects.toThrow(
        /^Invalid configuration: DEMO_DATA is off but the user "tech" can still sign in with the demo \(or an empty\) password/,
      );
      expect((await admin.put('/users/tech', { password: 'Lathe-Orbit-9173' })).status).toBe(200);
      await expect(startOutsideDemoMode(lab.databaseUrl)).resolves.toBeUndefined();
    });
  });

  describe('the session cookie', () => {
    let direct: TestApp;
    let proxied: TestApp;
    let forced: TestApp;
    beforeAll(async () => {
      [direct, proxied, forced] = await Promise.all([
        startTestApp(),
        startTestApp({ TRUST_PROXY: '127.0.0.1' }),
        startTestApp({ SECURE_COOKIES: '1' }),
      ]);
    });
    afterAll(() => Promise.all([direct?.close(), proxied?.close(), forced?.close()]));

    const cookieOf = async (lab: TestApp, headers: Record<string, string> = {}) => {
      const answer = await lab.anonymous.request(
        'POST',
        '/auth/login',
        { username: 'rep', password: 'demo' },
        headers,
      );
      expect(answer.status).toBe(200);
      return answer.headers.get('set-cookie') ?? '';
    };
    const HTTPS = { 'x-forwarded-proto': 'https' };

    it('is Secure when a proxy named in TRUST_PROXY says the request came over TLS', async () => {
      expect(await cookieOf(proxied, HTTPS)).toMatch(/;\s*Secure/i);
      expect(await cookieOf(proxied)).not.toMatch(/;\s*Secure/i);
    });

    it('ignores X-Forwarded-Proto from anybody else', async () => {
      expect(await cookieOf(direct, HTTPS)).not.toMatch(/;\s*Secure/i);
    });

    it('is always Secure with SECURE_COOKIES=1', async () => {
      expect(await cookieOf(forced)).toMatch(/;\s*Secure/i);
    });
  });
});
