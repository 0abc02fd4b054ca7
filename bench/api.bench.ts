import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../test/support/test-app';

/**
 * Command throughput and latency over HTTP at 32 concurrent clients, printed beside pgbench's
 * single-insert transaction rate at 32 clients on the same PostgreSQL server; and GET /cases with
 * 10,000 cases (200 and 304). Figures are printed, never judged: `npm run bench`.
 */
const CLIENTS = 32;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function load(seconds: number, clients: number, call: (client: number) => Promise<unknown>) {
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (Date.now() < deadline) {
        const started = performance.now();
        await call(client);
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: Math.round(latencies.length / seconds),
    p50: +percentile(latencies, 50).toFixed(1),
    p99: +percentile(latencies, 99).toFixed(1),
  };
}

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
    {
      encoding: 'utf8',
    },
  );
  return Math.round(Number(/tps = ([\d.]+)/.exec(output)![1]));
}

describe('API benchmarks', () => {
  let lab: TestApp;
  beforeAll(async () => {
    lab = await startTestApp();
  });
  afterAll(() => lab.close());

  it('command throughput and latency at 32 clients, beside pgbench', async () => {
    const rep = await lab.login('rep');
    const cases: string[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      cases.push(
        (await rep.post('/cases', { patientName: `Bench ${i}`, doctorName: 'D', clinicName: 'C' })).body.id,
      );
    }
    // Each client adds notes to its own case: one command = load stream, decide, append, project.
    const peak = await load(10, CLIENTS, (client) =>
      rep.post(`/cases/${cases[client]}/notes`, { text: 'bench' }),
    );
    const half = await load(10, CLIENTS / 2, (client) =>
      rep.post(`/cases/${cases[client]}/notes`, { text: 'bench' }),
    );
    const pgbench = pgbenchInsertRate(lab.databaseUrl, 10);
    console.log(
      [
        `commands at ${CLIENTS} clients: ${peak.perSecond}/s, p50 ${peak.p50} ms, p99 ${peak.p99} ms`,
        `commands at ${CLIENTS / 2} clients: ${half.perSecond}/s, p50 ${half.p50} ms, p99 ${half.p99} ms`,
        `pgbench single-insert transactions at ${CLIENTS} clients: ${pgbench}/s`,
        `ratio commands / pgbench: ${(peak.perSecond / pgbench).toFixed(2)} (target ≥ 0.25)`,
      ].join('\n'),
    );
    expect(peak.perSecond).toBeGreaterThan(0);
  });

  it('GET /cases with 10,000 cases: 200 and 304', async () => {
    const admin = await lab.login('admin');
    const existing = (await admin.get('/cases')).body.length;
    const rep = await lab.login('rep');
    const statuses = new Map<string, number>();
    for (let made = existing; made < 10_000; made += 200) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(200, 10_000 - made) }, (_, i) =>
          rep.post('/cases', { patientName: `Patient ${made + i}`, doctorName: 'D', clinicName: 'C' }),
        ),
      );
      for (const { status, body } of answers) {
        const key = status === 201 ? '201' : `${status} ${body?.error}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    }
    console.log('case creation answers:', Object.fromEntries(statuses));
    const first = await admin.get('/cases');
    const etag = first.headers.get('etag')!;
    const full = await load(10, 4, () => admin.get('/cases'));
    const notModified = await load(10, 4, () => admin.get('/cases', { 'if-none-match': etag }));
    console.log(
      [
        `GET /cases, ${first.body.length} cases, ${(JSON.stringify(first.body).length / 1e6).toFixed(1)} MB: ` +
          `${full.perSecond}/s, p50 ${full.p50} ms, p99 ${full.p99} ms (target p50 ≤ 25 ms)`,
        `GET /cases 304: ${notModified.perSecond}/s, p50 ${notModified.p50} ms, p99 ${notModified.p99} ms (target p50 ≤ 2 ms)`,
      ].join('\n'),
    );
    expect(first.body.length).toBeGreaterThanOrEqual(10_000);
  });
});
