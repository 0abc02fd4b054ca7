import type { INestApplication } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { Client } from 'pg';
import { createApp } from '../backend/src/app';
import { sealNext } from '../backend/src/audit/audit-sealer';
import { loadConfig } from '../backend/src/config/config';
import { createTestDatabase } from '../test/support/database';
import { ApiClient } from '../test/support/http';
import { load, thousands } from './support/load';
import { recordFigure } from './support/report';
import { fillLog } from './support/synthetic-log';

/** The sealer signs every seal; any Ed25519 key does for a measurement. */
const SEAL_KEY = generateKeyPairSync('ed25519').privateKey;

/**
 * Command latency must not grow with the log: the same commands (notes, each client on a fresh
 * case of its own) with 10k events in the log, then with 1M, in the same database.
 *
 * The log is written by SQL (seconds), with the app stopped; the notification dispatcher's
 * checkpoint is then set to the end of the log, as in a lab whose history was processed long ago,
 * and the live tailer starts at the end by itself. The audit sealer's backlog is sealed too
 * (SEAL_BACKLOG=0 leaves it to the app's sealer, to see what sealing a million events during the
 * measurement costs). So what is measured is commands, not the background readers catching up on
 * a million events; the unsealed count before and after each measurement shows that it is so.
 */
const BENCH = 'bench/command-latency.bench.ts';
const CLIENTS = 4;
const SECONDS = 5;
const SMALL_LOG = 10_000;
const LARGE_LOG = 1_000_000;

interface RunningApp {
  rep: ApiClient;
  close(): Promise<void>;
}

/** The real application on an existing database (startTestApp always makes a fresh one). */
async function startApp(databaseUrl: string, dataDir: string): Promise<RunningApp> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    DEMO_DATA: '1',
    ADMIN_PASSWORD: 'demo',
    PORT: '0',
  });
  const app: INestApplication = await createApp({
    config,
    databaseUrl,
    logger: false,
    spaDir: '/nonexistent',
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const apiUrl = `http://127.0.0.1:${port}${config.basePath}api`;
  const login = await new ApiClient(apiUrl).post('/auth/login', { username: 'rep', password: 'demo' });
  return { rep: new ApiClient(apiUrl, login.body.token, login.body.user), close: () => app.close() };
}

/** Seals every event in the log, as the app's sealer would have done while the log grew. */
async function sealBacklog(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    while ((await sealNext(client, 10_000, SEAL_KEY)) > 0);
  } finally {
    await client.end();
  }
}

const SEAL_BACKLOG = process.env.SEAL_BACKLOG !== '0';

async function unsealed(databaseUrl: string): Promise<number> {
  const [row] = await sql<{ n: number }>(
    databaseUrl,
    'SELECT ((SELECT count(*) FROM events) - (SELECT count(*) FROM audit_chain))::int AS n',
  );
  return row.n;
}

async function sql<T = Record<string, unknown>>(databaseUrl: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The dispatcher starts after everything already in the log (as migration 004 does on upgrade). */
const DISPATCHER_AT_END = `
  INSERT INTO projection_checkpoints (name, transaction_id, global_position)
  SELECT 'notifications', transaction_id, global_position FROM events
   ORDER BY transaction_id DESC, global_position DESC LIMIT 1
  ON CONFLICT (name) DO UPDATE SET transaction_id = excluded.transaction_id,
    global_position = excluded.global_position, updated_at = now()`;

/**
 * About 100 more copies of the synthetic cases (ids CA-2000-… become CA-1001-…, CA-1002-… and so
 * on, the id in CaseCreated too), so the log holds about 1M valid events without a second fill's
 * id clash; the years start at 1001 so that no copy lands on CA-2000 itself whatever the count.
 */
const COPY_SYNTHETIC_CASES = `
  INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
  SELECT 'case-CA-' || (1000 + k) || substr(e.stream_id, 13), e.stream_version, e.type, e.schema_version,
         CASE WHEN e.type = 'CaseCreated'
              THEN jsonb_set(e.data, '{id}', to_jsonb('CA-' || (1000 + k) || substr(e.stream_id, 13)))
              ELSE e.data END,
         e.metadata, e.recorded_at
    FROM generate_series(1, $COPIES) AS k, events e
   WHERE e.stream_id LIKE 'case-CA-2000-%'
   ORDER BY k, e.global_position`;

/** Notes at CLIENTS clients, each on a fresh case of its own, after a one-second warm-up. */
async function measure(app: RunningApp, databaseUrl: string) {
  const cases: string[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const created = await app.rep.post('/cases', {
      patientName: `Latency ${i}`,
      doctorName: 'D',
      clinicName: 'C',
    });
    cases.push(created.body.id);
  }
  const note = async (client: number) => {
    const answer = await app.rep.post(`/cases/${cases[client]}/notes`, { text: 'latency' });
    if (answer.status !== 201) throw new Error(`note: ${answer.status} ${JSON.stringify(answer.body)}`);
  };
  await load(1, CLIENTS, note);
  const unsealedBefore = await unsealed(databaseUrl);
  const cpuBefore = process.cpuUsage();
  const result = await load(SECONDS, CLIENTS, note);
  const cpu = process.cpuUsage(cpuBefore);
  const unsealedAfter = await unsealed(databaseUrl);
  return {
    ...result,
    cpuMsPerCommand: (cpu.user + cpu.system) / 1000 / result.count,
    unsealed: `${thousands(unsealedBefore)} → ${thousands(unsealedAfter)}`,
  };
}

async function eventCount(databaseUrl: string): Promise<number> {
  const [row] = await sql<{ n: number }>(databaseUrl, 'SELECT count(*)::int AS n FROM events');
  return row.n;
}

describe('command latency against the size of the log', () => {
  it(`is the same with ${thousands(SMALL_LOG)} and ${thousands(LARGE_LOG)} events`, async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'af-bench-'));
    try {
      // First start: migrations and the demo users (seeding only happens on an empty log).
      await (await startApp(database.url, dataDir)).close();
      const seeded = await eventCount(database.url);
      await fillLog(database.url, { events: SMALL_LOG - seeded });
      await sql(database.url, DISPATCHER_AT_END);
      if (SEAL_BACKLOG) await sealBacklog(database.url);

      let app = await startApp(database.url, dataDir);
      const smallEvents = await eventCount(database.url);
      const small = await measure(app, database.url);
      await app.close();

      const started = Date.now();
      const copies = Math.round((LARGE_LOG - smallEvents) / (SMALL_LOG - seeded));
      await sql(database.url, COPY_SYNTHETIC_CASES.replace('$COPIES', String(copies)));
      await sql(database.url, 'VACUUM (ANALYZE) events');
      await sql(database.url, DISPATCHER_AT_END);
      const largeEvents = await eventCount(database.url);
      process.stdout.write(
        `[bench] log grown to ${thousands(largeEvents)} events in ${Date.now() - started} ms\n`,
      );
      if (SEAL_BACKLOG) await sealBacklog(database.url);

      app = await startApp(database.url, dataDir);
      const large = await measure(app, database.url);
      await app.close();

      const describe = (r: typeof small) =>
        `p50 ${r.p50} ms, p99 ${r.p99} ms (${thousands(r.perSecond)}/s; ${r.cpuMsPerCommand.toFixed(1)} ms ` +
        'CPU of the API+client process per command; unsealed events before → after: ' +
        `${r.unsealed})`;
      const figure = (events: number) =>
        `Command latency, notes at ${CLIENTS} clients, ${thousands(events)}-event log (one API process)`;
      recordFigure({
        id: 'command-latency-10k',
        figure: figure(smallEvents),
        measured: describe(small),
        target: '—',
        bench: BENCH,
      });
      recordFigure({
        id: 'command-latency-1m',
        figure: figure(largeEvents),
        measured: describe(large),
        target: '—',
        bench: BENCH,
      });
      const ratio = large.p50 / small.p50;
      recordFigure({
        id: 'command-latency-ratio',
        figure: 'Command latency, 1M-event log / 10k-event log (p50)',
        measured: `${ratio.toFixed(2)} (p99: ${(large.p99 / small.p99).toFixed(2)})`,
        target: '≤ 1.2',
        met: ratio <= 1.2,
        bench: BENCH,
      });
      expect(largeEvents).toBeGreaterThanOrEqual(LARGE_LOG * 0.95);
      expect(small.count).toBeGreaterThan(0);
      expect(large.count).toBeGreaterThan(0);
    } finally {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
