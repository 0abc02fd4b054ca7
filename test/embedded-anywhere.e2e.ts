import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { REACHABLE_ROOT } from '../backend/src/database/embedded-postgres';
import { buildBackend, BUILD_TIMEOUT_MS, startApiProcess, type ApiProcess } from './support/app-process';

/**
 * `npm start` as a newcomer runs it after cloning under /root as root: the app's DATA_DIR is in
 * a directory user "postgres" (who runs the embedded PostgreSQL for root) cannot enter.
 */
const isRoot = process.getuid?.() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot)
  console.warn('embedded-anywhere.e2e: skipped, it needs root (PostgreSQL runs as "postgres" only then)');

describeAsRoot('the app with its embedded PostgreSQL, from a 0700 directory as root', () => {
  let clone: string;
  let home: string | undefined;
  let app: ApiProcess | undefined;
  const dataDir = () => path.join(clone, 'data');
  const start = () => startApiProcess('app', { DATA_DIR: dataDir(), DEMO_DATA: '1' });

  async function withDatabase<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const read = (name: string) => readFile(path.join(dataDir(), name), 'utf8').then((text) => text.trim());
    const client = new Client({
      host: '127.0.0.1',
      port: Number(await read('postgres.port')),
      user: 'postgres',
      password: await read('postgres.password'),
      database: 'alignerflow',
    });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await buildBackend();
    clone = await mkdtemp(path.join(os.tmpdir(), 'af-clone-'));
    expect(((await stat(clone)).mode & 0o777).toString(8)).toBe('700');
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await app?.stop();
    if (clone) await rm(clone, { recursive: true, force: true });
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('serves, keeps its cluster where "postgres" can reach it, and finds its data after a restart', async () => {
    app = await start();
    home = (await readFile(path.join(dataDir(), 'postgres.location'), 'utf8')).trim();
    expect(path.dirname(home)).toBe(REACHABLE_ROOT);
    expect(app.output()).toContain(`cannot enter ${clone} (mode 700)`);
    expect(app.output()).toContain(`lives in ${home}`);
    expect((await fetch(`${app.api}/health/ready`)).status).toBe(200);
    const client = await app.login('admin');
    expect((await client.get('/auth/me')).status).toBe(200);
    await withDatabase((db) =>
      db.query(`CREATE TABLE kept (text text); INSERT INTO kept VALUES ('across restarts')`),
    );
    await app.stop();
    app = undefined;

    app = await start();
    expect(app.output()).toContain(`(data in ${home}/postgres)`);
    const rows = await withDatabase(async (db) => (await db.query('SELECT text FROM kept')).rows);
    expect(rows).toEqual([{ text: 'across restarts' }]);
    expect((await app.login('admin')).user).toBeTruthy();
    await app.stop();
    app = undefined;
  }, 180_000);
});
