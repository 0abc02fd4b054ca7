import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { buildBackend, startApiProcess, type ApiProcess } from '../test/support/app-process';
import { createTestDatabase } from '../test/support/database';
import { summarise, thousands } from './support/load';
import { cpuProfileSummary } from './support/profiles';
import { recordFigure } from './support/report';

/**
 * Whether a command's cost and the list's size grow with a case's notes (issue 12, item 3).
 *
 * One API process built and started as `node backend/dist/main.js`, as commands.bench.ts runs it;
 * one client sending notes one after another (sequential: each figure is a command's own cost, not
 * queueing). A case is filled with 2,000 notes, then notes go alternately in blocks to a fresh case
 * and to that large one; each note's answer still carries the whole case.
 *
 * WAL per note is counted from the records of the bench's own database (pg_walinspect: records
 * touching its relations and the commits of their transactions), so other work on a shared server
 * does not count; full-page images after a checkpoint are included, as the server writes them.
 * Without pg_walinspect the whole server's WAL (pg_current_wal_lsn) is used, and said so.
 *
 * GET /cases bytes: the list with the large case, minus the list before that case existed.
 */
const BENCH = 'bench/case-growth.bench.ts';
const LARGE_NOTES = 2_000;
const ROUNDS = 3;
const NOTES_PER_BLOCK = 100;
const NOTE_TEXT =
  'Checked the upper arch attachments; patient reports a slight pressure on 2.1, as expected.';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A keep-alive client of one API process, answering the status, the body's size and the time. */
function client(api: string, token: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const { hostname, port, pathname } = new URL(api);
  return (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; bytes: number; ms: number; json: () => unknown }>((resolve, reject) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      const started = performance.now();
      const request = http.request(
        {
          agent,
          hostname,
          port,
          method,
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
            const text = Buffer.concat(chunks);
            const status = response.statusCode!;
            if (status >= 300) reject(new Error(`${method} ${path}: ${status} ${text}`));
            else
              resolve({
                status,
                bytes: text.length,
                ms: performance.now() - started,
                json: () => JSON.parse(text.toString()),
              });
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
}

describe('a case that does not grow per note', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let api: ApiProcess | undefined;
  let db: Client | undefined;
  const profileFile = join(tmpdir(), `af-bench-growth-${process.pid}.cpuprofile`);

  beforeAll(async () => {
    await buildBackend();
    database = await createTestDatabase();
    api = await startApiProcess('API', {
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '20',
      PROCESS_ROLE: 'api',
      REDIS_URL,
      NOTIFICATIONS_QUEUE_PREFIX: `af-bench-growth-${process.pid}`,
      NODE_OPTIONS: `--require ${join(__dirname, 'support', 'cpu-profile.cjs')}`,
      CPU_PROFILE_FILE: profileFile,
    });
    db = new Client({ connectionString: database.url });
    await db.connect();
  }, 300_000);
  afterAll(async () => {
    await db?.end();
    await api?.stop();
    await database?.drop();
  });

  /** WAL bytes written for this database from here to `end()` (see the file's comment). */
  async function walMeter(): Promise<{ own: boolean; end: () => Promise<number> }> {
    const own = await db!
      .query('CREATE EXTENSION IF NOT EXISTS pg_walinspect')
      .then(() => true)
      .catch(() => false);
    const { rows } = await db!.query(
      'SELECT pg_current_wal_lsn()::text AS lsn, (SELECT oid FROM pg_database WHERE datname = current_database()) AS oid',
    );
    const [{ lsn: start, oid }] = rows;
    return {
      own,
      end: async () => {
        if (!own) {
          const { rows: after } = await db!.query(`SELECT pg_current_wal_lsn() - $1::pg_lsn AS bytes`, [
            start,
          ]);
          return Number(after[0].bytes);
        }
        const { rows: after } = await db!.query(
          `WITH r AS (SELECT * FROM pg_get_wal_records_info($1::pg_lsn, pg_current_wal_flush_lsn())),
                mine AS (SELECT DISTINCT xid FROM r WHERE block_ref LIKE $2 AND xid <> '0')
           SELECT coalesce(sum(record_length), 0)::bigint AS bytes FROM r
            WHERE block_ref LIKE $2 OR (resource_manager = 'Transaction' AND xid IN (SELECT xid FROM mine))`,
          [start, `%/${oid}/%`],
        );
        return Number(after[0].bytes);
      },
    };
  }

  it('WAL and latency per note, and the list, on a case with 2,000 notes beside a fresh one', async () => {
    const rep = await api!.login('rep');
    const call = client(api!.api, rep.token!);
    const newCase = async (patientName: string) =>
      (
        (await call('POST', '/cases', { patientName, doctorName: 'D', clinicName: 'C' })).json() as {
          id: string;
        }
      ).id;
    const note = (id: string) => call('POST', `/cases/${id}/notes`, { text: NOTE_TEXT });

    const listWithout = (await call('GET', '/cases')).bytes;
    const large = await newCase('Large');
    for (let n = 1; n < LARGE_NOTES; n += 4) await Promise.all([0, 1, 2, 3].map(() => note(large)));
    const listWith = (await call('GET', '/cases')).bytes;
    const whole = (await call('GET', `/cases/${large}`)).json() as { notes: unknown[] };
    expect(whole.notes.length).toBeGreaterThanOrEqual(LARGE_NOTES);

    // Warm up both paths.
    const warm = await newCase('Warm');
    for (let n = 0; n < 50; n++) await note(n % 2 ? warm : large);

    const fresh = { ms: [] as number[], wal: 0, notes: 0, answerBytes: 0 };
    const grown = { ms: [] as number[], wal: 0, notes: 0, answerBytes: 0 };
    let ownWal = true;
    for (let round = 0; round < ROUNDS; round++) {
      const small = await newCase(`Fresh ${round}`);
      for (const [id, into] of [
        [small, fresh],
        [large, grown],
      ] as const) {
        const meter = await walMeter();
        ownWal &&= meter.own;
        for (let n = 0; n < NOTES_PER_BLOCK; n++) {
          const answer = await note(id);
          into.ms.push(answer.ms);
          into.answerBytes = answer.bytes;
        }
        into.wal += await meter.end();
        into.notes += NOTES_PER_BLOCK;
      }
    }
    // Where the API's time goes on the large case: a CPU profile of one more block.
    api!.child.kill('SIGUSR2');
    for (let n = 0; n < NOTES_PER_BLOCK; n++) await note(large);
    api!.child.kill('SIGUSR2');
    await sleep(1_000);
    const profile = cpuProfileSummary(profileFile);
    process.stdout.write(`[bench] API CPU profile, notes on the large case: ${profile.functions}\n`);

    const freshTimes = summarise(fresh.ms);
    const grownTimes = summarise(grown.ms);
    const walFresh = fresh.wal / fresh.notes;
    const walGrown = grown.wal / grown.notes;
    const walRatio = walGrown / walFresh;
    const p50Ratio = grownTimes.p50 / freshTimes.p50;
    const listGrowth = listWith - listWithout;
    const walSource = ownWal ? "this database's WAL records (pg_walinspect)" : "the whole server's WAL";

    recordFigure({
      id: 'case-growth-wal',
      figure: `WAL bytes per note on a case with ${thousands(LARGE_NOTES)} notes ÷ on a fresh case (sequential; ${walSource})`,
      measured: `${walRatio.toFixed(2)} (${thousands(walGrown)} B vs ${thousands(walFresh)} B per note)`,
      target: '≤ 1.5',
      met: walRatio <= 1.5,
      bench: BENCH,
    });
    recordFigure({
      id: 'case-growth-p50',
      figure: `Note p50 on a case with ${thousands(LARGE_NOTES)} notes ÷ on a fresh case (sequential; the answer carries the whole case)`,
      measured:
        `${p50Ratio.toFixed(2)} (p50 ${grownTimes.p50} ms vs ${freshTimes.p50} ms; p99 ${grownTimes.p99} ms vs ` +
        `${freshTimes.p99} ms; answers ${thousands(grown.answerBytes)} B vs ${thousands(fresh.answerBytes)} B; ` +
        `API profile on the large case: ${profile.places})`,
      target: '≤ 2',
      met: p50Ratio <= 2,
      bench: BENCH,
    });
    recordFigure({
      id: 'case-growth-list',
      figure: `GET /cases bytes with one case holding ${thousands(LARGE_NOTES)} notes − without that case`,
      measured: `${thousands(listGrowth)} B (${thousands(listWith)} B vs ${thousands(listWithout)} B)`,
      target: '≤ 200 KB',
      met: listGrowth <= 200 * 1024,
      bench: BENCH,
    });
  });
});
