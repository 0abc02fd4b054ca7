import { execFile, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { ApiClient } from './http';

/**
 * Real API processes (`node backend/dist/main.js`, as in production) for tests of several
 * processes on one database: scale-out, graceful shutdown.
 */
const ROOT = path.resolve(__dirname, '..', '..');
export const BUILD_TIMEOUT_MS = 240_000;
export const START_TIMEOUT_MS = 60_000;

/** Builds what `node backend/dist/main.js` runs. */
export async function buildBackend(): Promise<void> {
  await promisify(execFile)('npx', ['tsc', '-b', 'libs/domain', 'backend'], {
    cwd: ROOT,
    timeout: BUILD_TIMEOUT_MS,
  });
}

/** A port nobody listens on right now; the process binds it a moment later. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ApiProcess {
  name: string;
  child: ChildProcess;
  /** e.g. http://127.0.0.1:43210/api */
  api: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, without waiting. */
  terminate(): void;
  /** SIGTERM and wait for the exit; SIGKILL if it hangs past `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  login(username: string, password?: string): Promise<ApiClient>;
}

/**
 * Node's own options for the API processes a bench starts, from API_NODE_ARGS (space-separated):
 * V8's flags, such as `--trace-gc-nvp` or `--max-semi-space-size=64`, which NODE_OPTIONS refuses.
 */
const API_NODE_ARGS = (process.env.API_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** Starts `node backend/dist/main.js` (build first) and waits until /api/health/ready answers 200. */
export async function startApiProcess(name: string, env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...API_NODE_ARGS, path.join(ROOT, 'backend/dist/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DEMO_DATA: '1',
      ADMIN_PASSWORD: 'demo',
      DATABASE_POOL_SIZE: '5',
      MFA_REQUIRED_ROLES: '',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const output = () => chunks.join('');
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const api = `http://127.0.0.1:${port}/api`;

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (!running()) throw new Error(`${name} exited with ${child.exitCode}:\n${output()}`);
    const ready = await fetch(`${api}/health/ready`).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} was not ready in time:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    name,
    child,
    api,
    output,
    exited,
    terminate() {
      if (running()) child.kill('SIGTERM');
    },
    async stop(graceMs = 20_000) {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => running() && child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    async login(username, password = 'demo') {
      const answer = await new ApiClient(api).post('/auth/login', { username, password });
      if (answer.status !== 200) throw new Error(`login ${username} on ${name}: ${answer.status}`);
      return new ApiClient(api, answer.body.token, answer.body.user);
    },
  };
}
