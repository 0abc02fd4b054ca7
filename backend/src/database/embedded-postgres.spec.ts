import { readFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { binDir, resolveDatabaseUrl, ResolvedDatabase } from './embedded-postgres.js';

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
    const handle = await resolveDatabaseUrl({ databaseUrl: undefined, dataDir });
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
    const handle = await resolveDatabaseUrl({ databaseUrl: 'postgres://u:p@db:5432/x', dataDir });
    expect(handle.url).toBe('postgres://u:p@db:5432/x');
    expect(handle.ownerUrl).toBe('postgres://u:p@db:5432/x');
    await handle.stop();
  });

  it('keeps data, port and password across a restart', async () => {
    const first = await start();
    expect(first.ownerUrl).toMatch(/^postgres:\/\/postgres:[0-9a-f]+@127\.0\.0\.1:\d+\/alignerflow$/);
    // The app's own role, which may read and append events but not change them (app-role.ts).
    expect(first.url).toMatch(/^postgres:\/\/alignerflow_app:[0-9a-f]+@127\.0\.0\.1:\d+\/alignerflow$/);
    expect(await query(first.url, 'SELECT current_user AS role')).toEqual([{ role: 'alignerflow_app' }]);
    await query(first.ownerUrl, 'CREATE TABLE notes (text text); INSERT INTO notes VALUES ($$kept$$)');
    await first.stop();
    expect(await stat(path.join(dataDir, 'postgres', 'postmaster.pid')).catch(() => null)).toBeNull();

    const second = await start();
    expect(second.ownerUrl).toBe(first.ownerUrl);
    expect(await query(second.ownerUrl, 'SELECT text FROM notes')).toEqual([{ text: 'kept' }]);
    expect(((await stat(path.join(dataDir, 'postgres.password'))).mode & 0o777).toString(8)).toBe('600');
    await second.stop();
  });

  it('starts again after the postmaster was killed hard', async () => {
    const crashed = await start();
    const pid = await postmasterPid();
    process.kill(pid, 'SIGKILL');
    while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));

    const recovered = await start();
    expect(await query(recovered.ownerUrl, 'SELECT text FROM notes')).toEqual([{ text: 'kept' }]);
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
    expect(await query(fresh.ownerUrl, 'SELECT text FROM notes')).toEqual([{ text: 'kept' }]);
    await fresh.stop();
    await orphaned.stop();
  });

  it("shares a server whose owner is alive, and leaves it to the owner's stop()", async () => {
    const owner = await start();
    const pid = await postmasterPid();
    const guest = await start();
    expect(guest.ownerUrl).toBe(owner.ownerUrl);
    await guest.stop();
    expect(alive(pid)).toBe(true);
    await owner.stop();
    expect(alive(pid)).toBe(false);
  });

  describe('as root, where user "postgres" cannot reach', () => {
    // Not /var/lib/alignerflow: tests must not leave clusters or copies in the machine's own place.
    let reachableRoot: string;
    const locked = () => path.join(dataDir, 'locked');
    beforeAll(async () => {
      reachableRoot = path.join(dataDir, 'reachable');
      // Like /root/app/data: the directory itself is open, one of its parents is not.
      await mkdir(locked(), { recursive: true });
      await chmod(locked(), 0o700);
    });

    (isRoot ? it : it.skip)(
      'DATA_DIR: the cluster lives under the reachable root, found again on restart',
      async () => {
        const inner = path.join(locked(), 'inner');
        await mkdir(inner, { mode: 0o755 });
        const said: string[] = [];
        const open = async () => {
          const handle = await resolveDatabaseUrl(
            { databaseUrl: undefined, dataDir: inner },
            (line) => said.push(line),
            {
              reachableRoot,
            },
          );
          handles.push(handle);
          return handle;
        };
        const first = await open();
        await query(first.ownerUrl, 'CREATE TABLE notes (text text); INSERT INTO notes VALUES ($$kept$$)');
        await first.stop();

        const home = (await readFile(path.join(inner, 'postgres.location'), 'utf8')).trim();
        expect(path.dirname(home)).toBe(reachableRoot);
        expect(path.basename(home)).toMatch(/^[0-9a-f]{16}$/);
        expect(said.join('\n')).toContain(`cannot enter ${locked()} (mode 700)`);
        expect(said.join('\n')).toContain(`lives in ${home}`);
        expect(await stat(path.join(home, 'postgres', 'PG_VERSION'))).toBeTruthy();
        expect(await stat(path.join(inner, 'postgres')).catch(() => null)).toBeNull();

        const second = await open();
        expect(await query(second.ownerUrl, 'SELECT text FROM notes')).toEqual([{ text: 'kept' }]);
        expect(said.filter((line) => line.includes('started on'))).toEqual([
          expect.stringContaining(`(data in ${home}/postgres)`),
          expect.stringContaining(`(data in ${home}/postgres)`),
        ]);
        await second.stop();

        // An operator removed the cluster's place ("forget the data"): the next start begins afresh there.
        await rm(home, { recursive: true, force: true });
        const third = await open();
        expect(said.join('\n')).toContain(
          `${home}, named in ${path.join(inner, 'postgres.location')}, is gone`,
        );
        expect(await query(third.ownerUrl, "SELECT to_regclass('notes') AS notes")).toEqual([
          { notes: null },
        ]);
        await third.stop();
      },
    );

    (isRoot ? it : it.skip)(
      'DATA_DIR that already holds a cluster: says how to let the user in',
      async () => {
        const inner = path.join(locked(), 'with-cluster');
        await mkdir(path.join(inner, 'postgres'), { recursive: true, mode: 0o755 });
        await writeFile(path.join(inner, 'postgres', 'PG_VERSION'), '18\n');
        await expect(
          resolveDatabaseUrl({ databaseUrl: undefined, dataDir: inner }, () => {}, { reachableRoot }),
        ).rejects.toThrow(
          /cannot enter .*locked \(mode 700\), so it cannot reach .*with-cluster, where its cluster is .*Let it in/,
        );
      },
    );

    (isRoot ? it : it.skip)('the binaries: runs a copy under the reachable root', async () => {
      const installed = path.dirname(binDir());
      const hidden = path.join(locked(), 'native');
      await cp(installed, hidden, { recursive: true, verbatimSymlinks: true });
      const inner = path.join(dataDir, 'binaries-copied');
      const said: string[] = [];
      // Its own root: from a clone postgres cannot enter, the other tests copied the installed ones already.
      const copiesRoot = path.join(dataDir, 'reachable-binaries');
      const handle = await resolveDatabaseUrl(
        { databaseUrl: undefined, dataDir: inner },
        (line) => said.push(line),
        {
          reachableRoot: copiesRoot,
          binDir: path.join(hidden, 'bin'),
        },
      );
      handles.push(handle);
      expect(await query(handle.ownerUrl, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      await handle.stop();
      const copied = said.find((line) => line.includes('copied the PostgreSQL binaries to'))!;
      expect(copied).toContain(`cannot enter ${locked()} (mode 700)`);
      const target = copied.slice(copied.lastIndexOf(' ') + 1);
      expect(path.dirname(target)).toBe(copiesRoot);
      expect(((await stat(path.join(target, 'bin', 'postgres'))).mode & 0o777).toString(8)).toBe('755');
      // The cluster itself stayed in DATA_DIR, which user "postgres" can reach.
      expect(await stat(path.join(inner, 'postgres', 'PG_VERSION'))).toBeTruthy();
    });
  });
});
