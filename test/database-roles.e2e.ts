import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createApp } from '../backend/src/app';
import { loadConfig } from '../backend/src/config/config';
import { createTestDatabase } from './support/database';
import { eventually, sql } from './support/helpers';
import { ApiClient } from './support/http';

/**
 * Two roles (api.md, "Patient data"; docs/security.md): with DATABASE_OWNER_URL the migrations run
 * as the owner, and the app connects as a role that may read and append events but not update,
 * delete or truncate them, nor change their schema; the app works as usual under it.
 */
let database: { url: string; drop: () => Promise<void> };
let app: INestApplication;
let appUrl: string;
let admin: ApiClient;
let dataDir: string;
const role = `af_app_${randomBytes(4).toString('hex')}`;

async function asApp(text: string): Promise<string> {
  const client = new Client({ connectionString: appUrl });
  await client.connect();
  try {
    await client.query(text);
    return 'done';
  } catch (error) {
    return (error as { code: string }).code;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  const password = randomBytes(12).toString('hex');
  await sql(database.url, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  const url = new URL(database.url);
  url.username = role;
  url.password = password;
  appUrl = url.toString();
  dataDir = mkdtempSync(join(tmpdir(), 'af-roles-'));
  const config = loadConfig({
    DATABASE_URL: appUrl,
    DATABASE_OWNER_URL: database.url,
    DATA_DIR: dataDir,
    DEMO_DATA: '1',
    ADMIN_PASSWORD: 'demo',
    PORT: '0',
    MFA_REQUIRED_ROLES: '',
  });
  app = await createApp({ config, databaseUrl: appUrl, logger: false, spaDir: '/nonexistent' });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const api = `http://127.0.0.1:${port}/api`;
  const login = await new ApiClient(api).post('/auth/login', { username: 'admin', password: 'demo' });
  expect(login.status).toBe(200);
  admin = new ApiClient(api, login.body.token, login.body.user);
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
  await sql(database.url.replace(/\/[^/]+$/, '/postgres'), `DROP ROLE IF EXISTS ${role}`).catch(
    () => undefined,
  );
  rmSync(dataDir, { recursive: true, force: true });
});

it('connects as the app role, which owns none of the history', async () => {
  const [{ user }] = await sql(appUrl, 'SELECT current_user AS user');
  expect(user).toBe(role);
  const owners = await sql(
    database.url,
    `SELECT relname, pg_get_userbyid(relowner) AS owner FROM pg_class
      WHERE relname IN ('events', 'audit_chain', 'audit_checkpoints') ORDER BY relname`,
  );
  expect(owners.map((row) => row.owner)).not.toContain(role);
});

it('refuses the app role any UPDATE, DELETE or TRUNCATE of events, and any change of their schema', async () => {
  const refused = '42501'; // insufficient_privilege
  expect(await asApp("UPDATE events SET data = '{}' WHERE global_position = 1")).toBe(refused);
  expect(await asApp('DELETE FROM events WHERE global_position = 1')).toBe(refused);
  expect(await asApp('TRUNCATE events')).toBe(refused);
  expect(await asApp('DELETE FROM audit_chain')).toBe(refused);
  expect(await asApp('UPDATE audit_checkpoints SET at = now()')).toBe(refused);
  expect(await asApp('ALTER TABLE events DISABLE TRIGGER ALL')).toBe(refused);
  expect(await asApp('DROP TRIGGER events_no_update_or_delete ON events')).toBe(refused);
  expect(await asApp('ALTER TABLE events ADD COLUMN note text')).toBe(refused);
  expect(
    await asApp(`CREATE OR REPLACE FUNCTION events_reject_change() RETURNS trigger LANGUAGE plpgsql
                   AS $$ BEGIN RETURN NEW; END $$`),
  ).toBe(refused);
  expect(await asApp('SET session_replication_role = replica')).toBe(refused);
  // Reading is allowed.
  expect(await asApp('SELECT count(*) FROM events')).toBe('done');
});

it('still takes commands, answers reads, seals, verifies, restores and rebuilds under the app role', async () => {
  const [item] = (await admin.get('/cases')).body;
  const noted = await admin.post(`/cases/${item.id}/notes`, { text: 'Written by the app role.' });
  expect(noted.status).toBe(201);
  const read = await admin.get(`/cases/${item.id}`);
  expect(read.status).toBe(200);
  expect(read.body.notes.at(-1).text).toBe('Written by the app role.');
  await eventually(
    async () =>
      (
        await sql(
          database.url,
          'SELECT (SELECT count(*) FROM events) = (SELECT count(*) FROM audit_chain) AS done',
        )
      )[0].done,
    15_000,
    'every event to be sealed',
  );
  expect((await admin.get('/audit/verify')).body).toMatchObject({ ok: true, firstBroken: null });

  // A restore appends (it deletes no event), so it works under the app role too.
  const backup = await admin.get('/backup');
  expect(backup.status).toBe(200);
  expect((await admin.post('/restore', backup.body)).status).toBe(200);

  expect((await admin.post('/admin/rebuild-projections')).status).toBe(202);
  let progress: { state: string } = { state: 'running' };
  await eventually(
    async () => (progress = (await admin.get('/admin/rebuild-projections')).body).state !== 'running',
    60_000,
    'the rebuild to finish',
  );
  expect(progress).toMatchObject({ state: 'done' });
  expect((await admin.get(`/cases/${item.id}`)).body.notes.at(-1).text).toBe('Written by the app role.');
}, 90_000);
