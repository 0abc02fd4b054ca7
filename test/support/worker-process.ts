import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * A real `PROCESS_ROLE=worker` process running backend/src/main.ts from source (through the swc
 * require hook next to this file): what `npm run start:worker` runs, without a build. For tests
 * and the benchmark.
 */
export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** SIGKILL: no shutdown hook runs, as when a machine dies. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the graceful exit. */
  stop(): Promise<void>;
}

const REPO = resolve(__dirname, '..', '..');

export async function startWorkerProcess(
  env: Record<string, string>,
  options: {
    timeoutMs?: number;
    /** e.g. ['--cpu-prof'] (not allowed in NODE_OPTIONS) */ nodeArgs?: string[];
  } = {},
): Promise<WorkerProcess> {
  const { timeoutMs = 60_000, nodeArgs = [] } = options;
  const child = spawn(
    process.execPath,
    [...nodeArgs, '-r', join(__dirname, 'swc-register.cjs'), join(REPO, 'backend', 'src', 'main.ts')],
    {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, PROCESS_ROLE: 'worker' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const waitForExit = (ms: number) =>
    Promise.race([exited, new Promise<void>((done) => setTimeout(done, ms).unref())]);

  const deadline = Date.now() + timeoutMs;
  while (!/notification worker is running/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The worker process did not start:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  return {
    child,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await waitForExit(10_000);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await waitForExit(15_000);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await waitForExit(5_000);
      }
    },
  };
}

/** Whether the process is stopped (SIGSTOP): its state in /proc/<pid>/stat is `T`. */
export function isStopped(pid: number): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
}

/**
 * The local ports of the process's TCP connections to `remotePort` on this machine (Linux: its
 * socket descriptors in /proc/<pid>/fd, looked up in /proc/net/tcp and tcp6).
 */
export function localPortsTo(pid: number, remotePort: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // Closed since the listing.
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || !inodes.has(fields[9])) continue;
      const port = (address: string) => parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
      if (port(fields[2]) === remotePort) ports.add(port(fields[1]));
    }
  }
  return ports;
}
