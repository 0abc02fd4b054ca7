import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateKeyPairSync } from 'node:crypto';
import { Client } from 'pg';
import { sealNext } from '../backend/src/audit/audit-sealer';
import { buildBackend, BUILD_TIMEOUT_MS } from '../test/support/app-process';
import { createTestDatabase } from '../test/support/database';
import { serverCpuSeconds, thousands } from './support/load';
import { recordFigure } from './support/report';
import { fillLog } from './support/synthetic-log';

/** The sealer signs every seal; any Ed25519 key does for a measurement. */
const SEAL_KEY = generateKeyPairSync('ed25519').privateKey;

/**
 * Tamper evidence over a synthetic 1M-event log (bench/support/synthetic-log.ts): how fast the
 * sealer seals a backlog (sealNext in batches of 10,000, as the API's sealer does after a restore),
 * then `node backend/dist/verify-log.js` as `npm run verify-log` runs it. The verify rate is the
 * CLI's own: sealed events checked / wall time of the check, without the process's start-up; the
 * CLI process's CPU (start-up included) is printed beside it.
 */
const BENCH = 'bench/audit-verify.bench.ts';
const EVENTS = 1_000_000;
const TARGET = 250_000;
const ROOT = join(__dirname, '..');
const TIME = '/usr/bin/time';

async function verifyCli(databaseUrl: string) {
  const command = [process.execPath, join(ROOT, 'backend', 'dist', 'verify-log.js')];
  const timed = existsSync(TIME);
  const { stdout, stderr } = await promisify(execFile)(
    timed ? TIME : command[0],
    timed ? ['-f', 'cpu %U %S', ...command] : command.slice(1),
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, maxBuffer: 16 * 1024 * 1024 },
  );
  const done = /Checked (\d+) sealed events in (\d+) ms \((\d+) events\/s\)/.exec(stderr);
  if (!done) throw new Error(`verify-log said: ${stdout}${stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  return {
    answer: JSON.parse(stdout),
    ms: Number(done[2]),
    rate: Number(done[3]),
    cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined,
  };
}

describe('tamper evidence', () => {
  beforeAll(() => buildBackend(), BUILD_TIMEOUT_MS);

  it(`seals and verifies a ${thousands(EVENTS)}-event log`, async () => {
    const database = await createTestDatabase();
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const log = await fillLog(database.url, { events: EVENTS });
      process.stdout.write(`[bench] ${thousands(EVENTS)} events written in ${log.ms} ms\n`);

      const sealStarted = performance.now();
      let sealed = 0;
      for (
        let batch = await sealNext(client, 10_000, SEAL_KEY);
        batch > 0;
        batch = await sealNext(client, 10_000, SEAL_KEY)
      )
        sealed += batch;
      const sealSeconds = (performance.now() - sealStarted) / 1000;
      expect(sealed).toBe(EVENTS);
      await client.query('VACUUM (ANALYZE) audit_chain');
      recordFigure({
        id: 'audit-seal-1m',
        figure: `Sealing a backlog of ${thousands(EVENTS)} events (batches of 10,000, as after a restore)`,
        measured: `${thousands(EVENTS / sealSeconds)} events/s (${sealSeconds.toFixed(1)} s)`,
        target: '—',
        bench: BENCH,
      });

      // The check runs in PostgreSQL (audit-verifier.ts): its CPU beside the CLI's, and what the
      // two cores allow at that.
      const postgresBefore = serverCpuSeconds('postgres');
      const { answer, ms, rate, cpuSeconds } = await verifyCli(database.url);
      const postgresMicros = ((serverCpuSeconds('postgres') - postgresBefore) * 1e6) / EVENTS;
      expect(answer).toMatchObject({ ok: true, events: EVENTS, firstBroken: null });
      const cores = availableParallelism();
      const cpu =
        (cpuSeconds === undefined
          ? ''
          : `; CLI process CPU ${((cpuSeconds * 1e6) / EVENTS).toFixed(1)} µs/event`) +
        `; PostgreSQL CPU ${postgresMicros.toFixed(1)} µs/event, so ${cores} cores busy with it allow ` +
        `${thousands((cores * 1e6) / postgresMicros)} events/s`;
      recordFigure({
        id: 'audit-verify-1m',
        figure: `Verifying the hash chain of a ${thousands(EVENTS)}-event log (npm run verify-log)`,
        measured: `${thousands(rate)} events/s (${(ms / 1000).toFixed(1)} s${cpu})`,
        target: '≥ 250,000 events/s',
        met: rate >= TARGET,
        bench: BENCH,
      });
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
