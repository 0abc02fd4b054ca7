import { caseStreamId } from '@alignerflow/domain';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import {
  buildBackend,
  BUILD_TIMEOUT_MS,
  START_TIMEOUT_MS,
  startApiProcess,
  type ApiProcess,
} from './support/app-process';
import { createTestDatabase, keepInUse } from './support/database';
import { eventually, sql } from './support/helpers';
import { SseStream } from './support/sse';

/** Long enough to see readiness answer 503 before the listener closes, even on a busy machine. */
const SHUTDOWN_DELAY_MS = 3_000;
const CASE_ID = 'CA-2024-001';

/** A request on a connection of its own, so a kept-alive one cannot hide a closed listener. */
async function freshGet(url: string): Promise<{ status: number; body: any } | 'refused'> {
  try {
    const answer = await fetch(url, { headers: { connection: 'close' } });
    return { status: answer.status, body: await answer.json() };
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') return 'refused';
    throw error;
  }
}

/**
 * A real API process (`node backend/dist/main.js`) gets SIGTERM while a command waits in the
 * database for the case's locks (held from this test's own connection), and drains: readiness
 * 503, then no new connections, the live stream ends with a `retry:` hint, the command still
 * commits and is answered, and the process exits 0.
 */
describe('graceful shutdown of an API process', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let dataDir: string | undefined;
  let app: ApiProcess | undefined;
  let locker: Client | undefined;
  let keeper: Client | undefined;

  beforeAll(async () => {
    await buildBackend();
    database = await createTestDatabase();
    // A session in the database marks it as in use: other test runs sweep unused af_test_ ones.
    keeper = await keepInUse(database.url);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'af-shutdown-'));
    app = await startApiProcess('API', {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
      SHUTDOWN_TIMEOUT_MS: '60000',
    });
  }, BUILD_TIMEOUT_MS + START_TIMEOUT_MS);

  /** Takes the case's write locks in an open transaction of `client` (see the first use). */
  async function holdCaseLocks(client: Client): Promise<void> {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [caseStreamId(CASE_ID)]);
    await client.query('SELECT 1 FROM case_view WHERE id = $1 FOR UPDATE', [CASE_ID]);
  }

  /** Until one session of the test database waits for a lock: the command is held. */
  async function untilOneWaitsForLocks(): Promise<void> {
    await eventually(
      async () =>
        (
          await sql(
            database!.url,
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        )[0].n === 1,
      15_000,
      'the command to wait for the case locks',
    );
  }

  afterAll(async () => {
    await app?.stop();
    await locker?.end().catch(() => undefined);
    await keeper?.end().catch(() => undefined);
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('answers liveness and readiness, and keeps GET /health as it was', async () => {
    expect(await freshGet(`${app!.api}/health/live`)).toEqual({
      status: 200,
      body: { status: 'alive', draining: false },
    });
    expect(await freshGet(`${app!.api}/health/ready`)).toEqual({
      status: 200,
      body: { status: 'ready', draining: false, db: 'up', redis: 'disabled', migrations: 'applied' },
    });
    expect(await freshGet(`${app!.api}/health`)).toEqual({
      status: 200,
      body: { status: 'ok', db: 'up', redis: 'disabled' },
    });
  });

  it('on SIGTERM finishes the command in flight, ends the live stream with a retry hint, and exits 0', async () => {
    const admin = await app!.login('admin');
    const stream = await SseStream.open(`${app!.api}/events`, { token: admin.token });
    await stream.until(() => stream.lastEventId !== '', 'the first id');

    // Hold the case's locks from a transaction of this test, so the command waits in the
    // database: the stream's advisory lock (the queued write path) and its case_view row (the
    // quick path's append-and-project statement).
    locker = new Client({ connectionString: database!.url });
    await locker.connect();
    await holdCaseLocks(locker);
    let answered = false;
    const command = admin.post(`/cases/${CASE_ID}/notes`, { text: 'sent before the SIGTERM' }).finally(() => {
      answered = true;
    });
    await untilOneWaitsForLocks();

    app!.terminate();
    // Readiness turns 503 at once, while the listener still accepts (SHUTDOWN_DELAY_MS)…
    let drainingAnswer: { status: number; body: any } | undefined;
    await eventually(
      async () => {
        const answer = await freshGet(`${app!.api}/health/ready`);
        if (answer !== 'refused' && answer.status === 503) drainingAnswer = answer;
        return drainingAnswer !== undefined || answer === 'refused';
      },
      15_000,
      'readiness to answer 503',
    );
    expect(drainingAnswer).toEqual({
      status: 503,
      body: expect.objectContaining({ status: 'not ready', reason: 'draining', draining: true }),
    });
    // …liveness stays 200 (a restart would only cut the drain short)…
    const live = await freshGet(`${app!.api}/health/live`);
    if (live !== 'refused') expect(live).toEqual({ status: 200, body: { status: 'alive', draining: true } });

    // …then new connections are refused, and the live stream ends with a retry hint.
    await eventually(
      async () => (await freshGet(`${app!.api}/health/live`)) === 'refused',
      30_000,
      'new connections to be refused',
    );
    await stream.ended;
    expect(stream.endedBy).toBe('server');
    expect(stream.retries.length).toBeGreaterThanOrEqual(2); // the opening hint and the last one
    expect(answered).toBe(false);
    expect(app!.child.exitCode).toBeNull();

    // The command is still in the database, waiting: let it through, and it is answered.
    await locker.query('COMMIT');
    const noted = await command;
    expect(noted.status).toBe(201);
    expect(noted.headers.get('connection')).toBe('close');
    expect(JSON.stringify(noted.body)).toContain('sent before the SIGTERM');
    // Stored, too (its text encrypted under the case's key, so the row is matched by its type).
    const events = await sql(
      database!.url,
      `SELECT type FROM events WHERE stream_id = $1 AND stream_version = $2`,
      [caseStreamId(CASE_ID), noted.body.version],
    );
    expect(events).toEqual([{ type: 'NoteAdded' }]);

    const exit = await Promise.race([
      app!.exited,
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000).unref()),
    ]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(app!.output()).toContain('Shut down cleanly');
    console.log(
      `API drain: ${/Shut down cleanly in \d+ ms/.exec(app!.output())?.[0]} (SHUTDOWN_DELAY_MS ${SHUTDOWN_DELAY_MS}, ` +
        'then the command held by the test until the stream had ended)',
    );
  }, 120_000);

  it('gives up a drain that outlasts SHUTDOWN_TIMEOUT_MS: logged, exit 1', async () => {
    const bounded = await startApiProcess('bounded API', {
      DATABASE_URL: database!.url,
      DATA_DIR: dataDir!,
      SHUTDOWN_TIMEOUT_MS: '1000',
    });
    const blocker = new Client({ connectionString: database!.url });
    await blocker.connect();
    try {
      const admin = await bounded.login('admin');
      await holdCaseLocks(blocker);
      const command = admin
        .post(`/cases/${CASE_ID}/notes`, { text: 'cut short by the bound' })
        .catch((error: Error) => error);
      await untilOneWaitsForLocks();
      bounded.terminate();
      const exit = await Promise.race([
        bounded.exited,
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000).unref()),
      ]);
      expect(exit).toEqual({ code: 1, signal: null });
      expect(bounded.output()).toContain(
        'The shutdown took longer than 1000 ms (SHUTDOWN_TIMEOUT_MS): exiting now',
      );
      // No answer: the connection went with the process.
      expect(await command).toMatchObject({ message: 'fetch failed' });
      // Whether the cut command commits once the locks go is up to the database (a statement on its
      // own commits by itself): as after any lost connection, the client reloads before retrying.
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
      await bounded.stop();
    }
  }, 120_000);
});
