import { spawn, type ChildProcess } from 'node:child_process';
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
