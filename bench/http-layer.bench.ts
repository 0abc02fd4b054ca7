import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { adminUrl, testDatabaseName, withDatabase } from '../test/support/database';
import { freePort } from '../test/support/app-process';
import { cpuSeconds, summarise, thousands } from './support/load';
import { cpuProfileSummary, type ProfileFrame } from './support/profiles';

/**
 * The HTTP layer, measured: the same requests against API processes built from two checkouts,
 * alternately, each on a fresh database, with a CPU profile per request kind summed by layer.
 *
 *   npx tsc -b libs/domain backend          # in each checkout
 *   HTTP_REF=/path/to/other/checkout npx jest -c bench/jest.config.js bench/http-layer.bench.ts
 *
 * Without HTTP_REF only this checkout is measured. Prints; writes no table.
 */
const ROOT = resolve(__dirname, '..');
const REF = process.env.HTTP_REF;
const ROUNDS = Number(process.env.HTTP_ROUNDS ?? 2);
const SECONDS = Number(process.env.HTTP_SECONDS ?? 5);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Api {
  root: string;
  child: ChildProcess;
  url: string;
  profileFile: string;
  stop(): Promise<void>;
}

async function startApi(root: string, databaseUrl: string, tag: string): Promise<Api> {
  const port = await freePort();
  const profileFile = join(tmpdir(), `af-http-layer-${process.pid}-${tag}.cpuprofile`);
  const child = spawn(process.execPath, [join(root, 'backend/dist/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DEMO_DATA: '1',
      ADMIN_PASSWORD: 'demo',
      MFA_REQUIRED_ROLES: '',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '10',
      // The followers run in a worker role: this process does the requests' own work only.
      PROCESS_ROLE: 'api',
      REDIS_URL,
      NOTIFICATIONS_QUEUE_PREFIX: `af-http-layer-${process.pid}-${tag}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_OPTIONS: `--require ${join(ROOT, 'bench/support/cpu-profile.cjs')}`,
      CPU_PROFILE_FILE: profileFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Production logs every request to stdout: read it, keep only the start for errors.
  child.stdout!.on('data', (chunk: Buffer) => output.length < 20_000 && (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}/api`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API ${tag} exited:\n${output}`);
    const ready = await fetch(`${url}/health/ready`).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`API ${tag} not ready:\n${output}`);
    await new Promise((done) => setTimeout(done, 200));
  }
  return {
    root,
    child,
    url,
    profileFile,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function call(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; etag?: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest(url, { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        done({
          status: response.statusCode!,
          text: Buffer.concat(chunks).toString(),
          etag: response.headers.etag as string | undefined,
        }),
      );
      response.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** Closed loop for `seconds`; the API process's CPU per request from /proc. */
async function measure(api: Api, clients: number, one: () => Promise<unknown>) {
  const latencies: number[] = [];
  const cpuBefore = cpuSeconds(api.child.pid!);
  const deadline = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < deadline) {
        const started = performance.now();
        await one();
        latencies.push(performance.now() - started);
      }
    }),
  );
  const cpu = cpuSeconds(api.child.pid!) - cpuBefore;
  const figures = summarise(latencies);
  return {
    ...figures,
    perSecond: Math.round(figures.count / SECONDS),
    cpuMs: +((cpu * 1000) / figures.count).toFixed(3),
  };
}

/** The layer a frame belongs to, by its package or our file. */
function layerOf({ functionName, url }: ProfileFrame): string {
  if (!url) return functionName.startsWith('(') ? functionName : `(native) ${functionName}`;
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (module) return module;
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const own = /backend\/dist\/(.*)$/.exec(url);
  return own ? `app: ${own[1]}` : /libs\/domain/.test(url) ? 'domain' : url;
}

/** The framework's parts, and what lies around them. */
const GROUPS: [string, RegExp][] = [
  ['Nest', /^@nestjs\//],
  [
    'Fastify and its router',
    /^(fastify|find-my-way|avvio|fast-querystring|@fastify\/.*|type-is|negotiator)$/,
  ],
  ['rxjs', /^rxjs$/],
  ['AsyncLocalStorage', /^node:async_hooks$/],
  ['helmet', /^helmet$/],
  ['session gate', /^app: (security|sessions)\//],
  ['metrics', /^(app: metrics\/|prom-client$)/],
  ['request log', /^(pino|sonic-boom|app: logging\/)/],
  ['pg and typeorm', /^(pg|pg-protocol|pg-pool|typeorm)$/],
  ['Node http, streams, events', /^node:/],
  ['native (socket writes…)', /^\(native\)/],
  ['garbage collector', /^\(garbage collector\)$/],
];

function groupOf(layer: string): string {
  return GROUPS.find(([, pattern]) => pattern.test(layer))?.[0] ?? 'other (our code, domain, (program))';
}

/** Self samples by layer, as ms of CPU per request (samples scaled to the measured CPU). */
function profileByLayer(file: string, cpuMsPerRequest: number, top = 14): string {
  const label = (hits: number, busy: number) =>
    `${((100 * hits) / busy).toFixed(0)}% (${((cpuMsPerRequest * hits) / busy).toFixed(3)} ms)`;
  const layers = cpuProfileSummary(file, top, { classify: layerOf, label });
  const groups = cpuProfileSummary(file, top, { classify: (frame) => groupOf(layerOf(frame)), label });
  return (
    `${groups.places}\n    by layer (self): ${layers.places}` +
    (process.env.HTTP_FUNCTIONS ? `\n    by function (self): ${layers.functions}` : '')
  );
}

async function profiled<T>(api: Api, work: () => Promise<T & { cpuMs: number }>) {
  rmSync(api.profileFile, { force: true });
  api.child.kill('SIGUSR2');
  await new Promise((done) => setTimeout(done, 200));
  const result = await work();
  api.child.kill('SIGUSR2');
  for (let i = 0; i < 100 && !safeExists(api.profileFile); i++) await new Promise((d) => setTimeout(d, 100));
  return { ...result, profile: profileByLayer(api.profileFile, result.cpuMs) };
}

function safeExists(file: string): boolean {
  try {
    readFileSync(file);
    return true;
  } catch {
    return false;
  }
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** One checkout's figures: the 304 list at 4 clients, /auth/me and a note at 1 client. */
async function run(root: string, tag: string, profile: boolean) {
  const name = testDatabaseName(Date.now());
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const api = await startApi(root, withDatabase(adminUrl(), name), tag);
  try {
    const login = await call(
      `${api.url}/auth/login`,
      'POST',
      { 'content-type': 'application/json' },
      JSON.stringify({ username: 'admin', password: 'demo' }),
    );
    const auth = { authorization: `Bearer ${JSON.parse(login.text).token}` };
    const created = await call(
      `${api.url}/cases`,
      'POST',
      { ...auth, 'content-type': 'application/json' },
      JSON.stringify({ patientName: 'Bench Patient', doctorName: 'Dr. Bench', clinicName: 'Bench Clinic' }),
    );
    const caseId = JSON.parse(created.text).id as string;
    // The notes move the list's ETag on: each 304 run takes the current one first.
    const unchanged = async (clients: number) => {
      // A commit's own NOTIFY comes back after its answer and moves the tag once more: wait for it.
      const tag = async () => (await call(`${api.url}/cases`, 'GET', auth)).etag!;
      let etag = await tag();
      for (let previous = ''; etag !== previous; etag = await tag()) {
        previous = etag;
        await new Promise((done) => setTimeout(done, 500));
      }
      const headers = { ...auth, 'accept-encoding': 'gzip', 'if-none-match': etag };
      return measure(api, clients, async () =>
        expect((await call(`${api.url}/cases`, 'GET', headers)).status).toBe(304),
      );
    };
    const note = JSON.stringify({ text: 'A note from the HTTP layer bench.' });
    const noteHeaders = { ...auth, 'content-type': 'application/json' };
    const all = {
      'GET /cases 304, 4 clients': () => unchanged(4),
      'GET /cases 304, 1 client': () => unchanged(1),
      'GET /auth/me, 1 client': () =>
        measure(api, 1, async () => expect((await call(`${api.url}/auth/me`, 'GET', auth)).status).toBe(200)),
      'POST /cases/{id}/notes, 1 client': () =>
        measure(api, 1, async () =>
          expect((await call(`${api.url}/cases/${caseId}/notes`, 'POST', noteHeaders, note)).status).toBe(
            201,
          ),
        ),
    };
    const only = process.env.HTTP_KINDS?.split(',');
    const kinds = Object.fromEntries(
      Object.entries(all).filter(([kind]) => !only || only.some((part) => kind.includes(part))),
    );
    // Warm up every path first: the JIT, the pools, the caches.
    for (const one of Object.values(kinds)) await one();
    const figures: Record<string, Record<string, unknown>> = {};
    for (const [kind, one] of Object.entries(kinds)) figures[kind] = await one();
    // Profiled in a second pass: the sampling costs CPU of its own.
    if (profile)
      for (const [kind, one] of Object.entries(kinds))
        figures[kind].profile = (await profiled(api, one)).profile;
    return figures;
  } finally {
    await api.stop();
    rmSync(api.profileFile, { force: true });
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

describe('the HTTP layer, A/B', () => {
  it('the 304 list, /auth/me and a note: latency, API CPU per request, CPU by layer', async () => {
    const trees = REF ? [['ref', REF] as const, ['this', ROOT] as const] : [['this', ROOT] as const];
    for (let round = 1; round <= ROUNDS; round++)
      for (const [tag, root] of round % 2 ? trees : [...trees].reverse()) {
        const figures = await run(root, `${tag}-${round}`, process.env.HTTP_PROFILE !== '0');
        process.stdout.write(
          `\n[http-layer] round ${round}, ${tag} (${root}), load ${loadavg()[0].toFixed(1)}\n` +
            Object.entries(figures)
              .map(([kind, f]) => {
                const { p50, p99, perSecond, cpuMs, profile } = f as Record<string, number | string>;
                return `  ${kind}: p50 ${p50} ms, p99 ${p99} ms, ${thousands(perSecond as number)}/s, ${cpuMs} ms API CPU/request${profile ? `\n    by part (self): ${profile}` : ''}`;
              })
              .join('\n') +
            '\n',
        );
      }
  });
});
