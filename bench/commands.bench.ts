import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../test/support/test-app';
import { load, thousands } from './support/load';
import { recordFigure } from './support/report';

/**
 * Command throughput and latency over HTTP at 32 concurrent clients, beside pgbench's
 * single-insert transaction rate at 32 clients on the same PostgreSQL server.
 *
 * Topology: one API process, which is also the process of the HTTP clients (jest), against
 * PostgreSQL on the same 2-core machine. The clients' own CPU (fetch) therefore competes with the
 * API's; the CPU per command printed covers both.
 */
const CLIENTS = 32;
const BENCH = 'bench/commands.bench.ts';

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

describe('command benchmarks', () => {
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
    // Each client adds notes to its own case: one command = load, decide, append, project.
    const notes = async (clients: number) => {
      const cpuBefore = process.cpuUsage();
      const result = await load(10, clients, (client) =>
        rep.post(`/cases/${cases[client]}/notes`, { text: 'bench' }),
      );
      const cpu = process.cpuUsage(cpuBefore);
      return { ...result, cpuMs: (cpu.user + cpu.system) / 1000 / result.count };
    };
    const peak = await notes(CLIENTS);
    const half = await notes(CLIENTS / 2);
    const pgbench = pgbenchInsertRate(lab.databaseUrl, 10);
    const ratio = peak.perSecond / pgbench;
    recordFigure({
      id: 'commands-peak',
      figure: `Commands over HTTP, ${CLIENTS} clients (one API process, clients in the same process)`,
      measured: `${thousands(peak.perSecond)}/s, p50 ${peak.p50} ms, p99 ${peak.p99} ms, ${peak.cpuMs.toFixed(1)} ms CPU per command`,
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
      figure: 'Command throughput / pgbench single-insert rate',
      measured: ratio.toFixed(2),
      target: '≥ 0.25',
      met: ratio >= 0.25,
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-half',
      figure: `Command p99 at ${CLIENTS / 2} clients (about half the peak)`,
      measured: `${thousands(half.perSecond)}/s, p50 ${half.p50} ms, p99 ${half.p99} ms, ${half.cpuMs.toFixed(1)} ms CPU per command`,
      target: '≤ 25 ms',
      met: half.p99 <= 25,
      bench: BENCH,
    });
    expect(peak.count).toBeGreaterThan(0);
  });
});
