import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { resolveDatabaseUrl, ResolvedDatabase } from './embedded-postgres.js';

const isRoot = process.getuid?.() === 0;

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return state[state.lastIndexOf(')') + 2] !== 'Z';
}

describe('resolveDatabaseUrl', () => {
  let dataDir: string;
  const handles: ResolvedDatabase[] = [];
  const start = async () => {
    const handle = await resolveDatabaseUrl({ DATA_DIR: dataDir });
    handles.push(handle);
    return handle;
  };
  const postmasterPid = async () =>
    Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'af-embedded-pg-'));
    // mkdtemp makes it 0700: as root, PostgreSQL runs as "postgres" and must be able to enter it.
    await chmod(dataDir, 0o755);
  });

  afterAll(async () => {
    for (const handle of handles) await handle.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('returns DATABASE_URL as is when set', async () => {
    const handle = await resolveDatabaseUrl({ DATABASE_URL: 'postgres://u:p@db:5432/x', DATA_DIR: dataDir });
    expect(handle.url).toBe('postgres://u:p@db:5432/x');
    await handle.stop();
  });

  it('keeps data, port and password across a restart', async () => {
    const first = await start();
    expect(first.url).toMatch(/^postgres:\/\/postgres:[0-9a-f]+@127\.0\.0\.1:\d+\/alignerflow$/);
    await query(first.url, 'CREATE TABLE notes (text text); INSERT INTO notes VALUES ($$kept$$)');
    await first.stop();
    expect(await stat(path.join(dataDir, 'postgres', 'postmaster.pid')).catch(() => null)).toBeNull();

    const second = await start();
    expect(second.url).toBe(first.url);
    expect(await query(second.url, 'SELECT text FROM notes')).toEqual([{ text: 'kept' }]);
    expect(((await stat(path.join(dataDir, 'postgres.password'))).mode & 0o777).toString(8)).toBe('600');
    await second.stop();
  });

  it('starts again after the postmaster was killed hard', async () => {
    const crashed = await start();
    const pid = await postmasterPid();
    process.kill(pid, 'SIGKILL');
    while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));

    const recovered = await start();
    expect(await query(recovered.url, 'SELECT text FROM notes')).toEqual([{ text: 'kept' }]);
    // The dead server's handle must leave the new server alone.
    await crashed.stop();
    const newPid = await postmasterPid();
    expect(alive(newPid)).toBe(true);
    await recovered.stop();
    expect(alive(newPid)).toBe(false);
  });

  it('stops a server left running by a process that is gone', async () => {
    const orphaned = await start();
    const oldPid = await postmasterPid();
    // As if the app that started it had been killed with SIGKILL.
    await writeFile(
      path.join(dataDir, 'postgres.owner'),
      JSON.stringify({ ownerPid: 999_999_999, postmasterPid: oldPid }),
    );

    const fresh = await start();
    expect(alive(oldPid)).toBe(false);
    expect(await postmasterPid()).not.toBe(oldPid);
    expect(await query(fresh.url, 'SELECT text FROM notes')).toEqual([{ text: 'kept' }]);
    await fresh.stop();
    await orphaned.stop();
  });

  it("shares a server whose owner is alive, and leaves it to the owner's stop()", async () => {
    const owner = await start();
    const pid = await postmasterPid();
    const guest = await start();
    expect(guest.url).toBe(owner.url);
    await guest.stop();
    expect(alive(pid)).toBe(true);
    await owner.stop();
    expect(alive(pid)).toBe(false);
  });

  (isRoot ? it : it.skip)('explains a DATA_DIR the postgres user cannot reach', async () => {
    const locked = path.join(dataDir, 'locked');
    // Like /root/app/data: the directory itself is open, one of its parents is not.
    await mkdir(path.join(locked, 'inner'), { recursive: true, mode: 0o755 });
    await chmod(locked, 0o700);
    await expect(resolveDatabaseUrl({ DATA_DIR: path.join(locked, 'inner') })).rejects.toThrow(
      /cannot enter .*locked \(mode 700\), so it cannot reach .*inner\. Set DATA_DIR/,
    );
  });
});
