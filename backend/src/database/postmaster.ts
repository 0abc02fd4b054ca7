/** The embedded PostgreSQL server's life: initdb, start, a stale server taken over or stopped. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
// No `.js`: test/global-setup.ts loads this file with Node's own resolver.
import { run, type Log, type PostgresUser } from './postgres-user-access';

/** Which process started the running server, and its postmaster. */
export interface Owner {
  ownerPid: number;
  postmasterPid: number;
}

export const STOP_TIMEOUT_MS = 10_000;
const MAX_LOG_BYTES = 10 * 1024 * 1024;

export async function initCluster(
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
export async function takeOverRunningServer(
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

export async function readOwner(ownerFile: string): Promise<Owner | undefined> {
  try {
    return JSON.parse(await fs.readFile(ownerFile, 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

export async function startServer(
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

export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** Fast shutdown: rolls back open transactions, then a clean checkpoint. */
export async function stopPostmaster(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid)) {
    if (Date.now() > deadline)
      throw new Error(`PostgreSQL (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function isAlive(pid: number): boolean {
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
export function isPostmasterOf(pid: number, pgDir: string): boolean {
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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
