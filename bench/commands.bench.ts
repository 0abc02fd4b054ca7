import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { buildBackend, startApiProcess, type ApiProcess } from '../test/support/app-process';
import { createTestDatabase } from '../test/support/database';
import { load, summarise, thousands, cpuSeconds } from './support/load';
import { recordFigure } from './support/report';

/**
 * Command throughput and latency over HTTP, beside pgbench's single-insert transaction rate at 32
 * clients on the same PostgreSQL server.
 *
 * Topology, as production runs it: API processes built and started as `node backend/dist/main.js`
 * (PROCESS_ROLE=api, the production pool size of 20), PostgreSQL and this process (the clients:
 * node:http with keep-alive connections) on the same 2-core machine. Each client adds notes to a
 * case of its own: one command = load the case, decide, append, project, answer the whole case.
 * First one API process (peak at 32 clients in a closed loop, then the same clients paced to half
 * that rate for the latency at half the peak), then two API processes with the 32 clients split
 * between them (production runs two replicas). The CPU per command is the API processes' own (from
 * /proc), the clients' apart; the WAL per command is the whole server's (other databases count).
 *
 * BENCH_COMMANDS_SECONDS shortens or lengthens each load; BENCH_API_NODE_OPTIONS is passed to the
 * API processes as NODE_OPTIONS (Node 20 refuses --cpu-prof there: to profile, `--require` a
 * script that starts node:inspector's Profiler and writes the profile on a signal or at exit).
 */
const CLIENTS = 32;
const SECONDS = Number(process.env.BENCH_COMMANDS_SECONDS ?? 10);
const BENCH = 'bench/commands.bench.ts';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** pgbench: one INSERT per transaction, 32 clients, on a scratch table of the same server. */
function pgbenchInsertRate(databaseUrl: string, seconds: number): number {
  const script = join(tmpdir(), 'af-pgbench-insert.sql');
  writeFileSync(script, 'INSERT INTO bench_inserts (payload) VALUES (\'{"n": 1}\');\n');
  execFileSync('psql', [
    databaseUrl,
    '-qc',
    'CREATE TABLE IF NOT EXISTS bench_inserts (id bigserial PRIMARY KEY, payload jsonb)',
  ]);
  const output = execFileSync(
    'pgbench',
    ['-n', '-c', String(CLIENTS), '-j', '2', '-T', String(seconds), '-f', script, databaseUrl],
    { encoding: 'utf8' },
  );
  return Math.round(Number(/tps = ([\d.]+)/.exec(output)![1]));
}

/**
 * `clients` callers sharing `perSecond` calls a second, evenly spaced: each waits for its next
 * slot, or calls at once when it is behind. The latency is from the call to its answer.
 */
async function paced(
  seconds: number,
  clients: number,
  perSecond: number,
  call: (client: number) => Promise<unknown>,
) {
  const latencies: number[] = [];
  const interval = (clients * 1000) / perSecond;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let slot = start + (client * interval) / clients; slot < end; slot += interval) {
        const wait = slot - performance.now();
        if (wait > 0) await sleep(wait);
        const started = performance.now();
        await call(client);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return { perSecond: Math.round(latencies.length / seconds), ...summarise(latencies) };
}

/** A lean client of one API process: keep-alive connections, the answer read and checked. */
function poster(api: string, token: string, clients: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const { hostname, port, pathname } = new URL(api);
  return (path: string, body: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const payload = JSON.stringify(body);
      const request = http.request(
        {
          agent,
          hostname,
          port,
          method: 'POST',
          path: `${pathname}${path}`,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            if (response.statusCode! >= 300) reject(new Error(`${path}: ${response.statusCode} ${text}`));
            else resolve(JSON.parse(text));
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
}

describe('command benchmarks', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  const apis: ApiProcess[] = [];
  const env = () => ({
    DATABASE_URL: database!.url,
    DATABASE_POOL_SIZE: '20',
    PROCESS_ROLE: 'api',
    REDIS_URL,
    NOTIFICATIONS_QUEUE_PREFIX: `af-bench-commands-${process.pid}`,
    ...(process.env.BENCH_API_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_API_NODE_OPTIONS } : {}),
  });

  beforeAll(async () => {
    await buildBackend();
    database = await createTestDatabase();
    apis.push(await startApiProcess('API A', env()));
  }, 300_000);
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await database?.drop();
  });

  /** Bytes of WAL the server has written so far. */
  async function walPosition(): Promise<number> {
    const client = new Client({ connectionString: database!.url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT pg_current_wal_lsn() - '0/0' AS bytes`);
      return Number(rows[0].bytes);
    } finally {
      await client.end();
    }
  }

  /** Each client adds notes to its case, through apis[client % n]; as fast as it can, or paced. */
  async function notes(targets: ApiProcess[], cases: string[], clients: number, perSecond?: number) {
    const posts = await Promise.all(
      targets.map(async (api) => poster(api.api, (await api.login('rep')).token!, clients)),
    );
    const pids = targets.map((api) => api.child.pid!);
    const cpuBefore = pids.map(cpuSeconds);
    const walBefore = await walPosition();
    const clientCpuBefore = process.cpuUsage();
    const note = (client: number) =>
      posts[client % posts.length](`/cases/${cases[client]}/notes`, { text: 'bench' });
    const result = perSecond
      ? await paced(SECONDS, clients, perSecond, note)
      : await load(SECONDS, clients, note);
    const apiCpu = pids.reduce((sum, pid, i) => sum + cpuSeconds(pid) - cpuBefore[i], 0);
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const walBytes = (await walPosition()) - walBefore;
    return {
      ...result,
      walKb: walBytes / 1024 / result.count,
      apiCpuMs: (apiCpu * 1000) / result.count,
      clientCpuMs: (clientCpu.user + clientCpu.system) / 1000 / result.count,
      load: loadavg()[0].toFixed(1),
    };
  }
  const describeRun = (run: Awaited<ReturnType<typeof notes>>) =>
    `${thousands(run.perSecond)}/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ` +
    `${run.apiCpuMs.toFixed(2)} ms API CPU per command (clients ${run.clientCpuMs.toFixed(2)} ms), ` +
    `${run.walKb.toFixed(1)} KB of WAL per command (whole server)`;

  it('command throughput and latency at 32 clients, beside pgbench', async () => {
    const rep = await apis[0].login('rep');
    const cases: string[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const created = await rep.post('/cases', {
        patientName: `Bench ${i}`,
        doctorName: 'D',
        clinicName: 'C',
      });
      expect(created.status).toBe(201);
      cases.push(created.body.id);
    }
    const noteCount = async () =>
      (await Promise.all(cases.map((id) => rep.get(`/cases/${id}`)))).reduce(
        (sum, answer) => sum + answer.body.notes.length,
        0,
      );
    const notesBefore = await noteCount();
    const peak = await notes(apis, cases, CLIENTS);
    const half = await notes(apis, cases, CLIENTS, peak.perSecond / 2);
    process.stdout.write(`[bench] one API process, load average ${peak.load} / ${half.load}\n`);

    apis.push(await startApiProcess('API B', env()));
    const pair = await notes(apis, cases, CLIENTS);
    process.stdout.write(`[bench] two API processes, load average ${pair.load}\n`);

    const pgbench = pgbenchInsertRate(database!.url, SECONDS);
    const best = pair.perSecond > peak.perSecond ? { run: pair, apis: 2 } : { run: peak, apis: 1 };
    const ratio = best.run.perSecond / pgbench;

    recordFigure({
      id: 'commands-peak',
      figure: `Commands over HTTP (notes), ${CLIENTS} clients, one API process (node backend/dist, clients in another process)`,
      measured: describeRun(peak),
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-peak-two-apis',
      figure: `Commands over HTTP (notes), ${CLIENTS} clients split over two API processes`,
      measured: describeRun(pair),
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-pgbench',
      figure: `pgbench single-insert transactions, ${CLIENTS} clients, same server`,
      measured: `${thousands(pgbench)}/s`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-ratio',
      figure: `Command throughput (${best.apis === 2 ? 'two API processes' : 'one API process'}) / pgbench single-insert rate`,
      measured: ratio.toFixed(2),
      target: '≥ 0.25',
      met: ratio >= 0.25,
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-half',
      figure: `Command p99 at half the peak rate (${CLIENTS} clients paced to ${thousands(peak.perSecond / 2)}/s), one API process`,
      measured: describeRun(half),
      target: '≤ 25 ms',
      met: half.p99 <= 25,
      bench: BENCH,
    });
    // Nothing lost: every answered note is in its case.
    expect((await noteCount()) - notesBefore).toBe(peak.count + half.count + pair.count);
  });
});
