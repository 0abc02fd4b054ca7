import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Client } from 'pg';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './support/app-process';
import { createTestDatabase, keepInUse } from './support/database';
import { ApiClient } from './support/http';
import { LIVE_TEST_TIMEOUT_MS, longTransactionOnServer, SseStream } from './support/sse';

/** What the live stream carries of a whole case: no notes, their count. */
function summaryOf({ notes, ...fields }: { notes: unknown[] }) {
  return { ...fields, noteCount: notes.length };
}

const ROOT = path.resolve(__dirname, '..');
const BUILD_TIMEOUT_MS = 240_000;
const START_TIMEOUT_MS = 60_000;
/** Generous: this is about arriving at all, not about speed (the latency is printed). */
const ARRIVAL_TIMEOUT_MS = 10_000;

interface Instance {
  name: string;
  child: ChildProcess;
  api: string;
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startInstance(name: string, port: number, databaseUrl: string, dataDir: string): Instance {
  const child = spawn(process.execPath, [path.join(ROOT, 'backend/dist/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DEMO_DATA: '1',
      ADMIN_PASSWORD: 'demo',
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATA_DIR: dataDir,
      DATABASE_POOL_SIZE: '5',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { name, child, api: `http://127.0.0.1:${port}/api`, output, exited };
}

async function waitUntilServing(instance: Instance): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (instance.child.exitCode !== null)
      throw new Error(
        `${instance.name} exited with ${instance.child.exitCode}:\n${instance.output.join('')}`,
      );
    const healthy = await fetch(`${instance.api}/health`).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (healthy) return;
    if (Date.now() > deadline)
      throw new Error(`${instance.name} did not start in time:\n${instance.output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Ends a process we started, by its PID: SIGTERM first (a graceful close), SIGKILL if it hangs. */
async function stop(instance: Instance | undefined): Promise<void> {
  if (!instance || instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  process.kill(instance.child.pid!, 'SIGTERM');
  const timer = setTimeout(() => {
    if (instance.child.exitCode === null) process.kill(instance.child.pid!, 'SIGKILL');
  }, 10_000);
  await instance.exited;
  clearTimeout(timer);
}

async function login(instance: Instance, username: string): Promise<ApiClient> {
  const answer = await new ApiClient(instance.api).post('/auth/login', { username, password: 'demo' });
  if (answer.status !== 200) throw new Error(`login ${username} on ${instance.name}: ${answer.status}`);
  return new ApiClient(instance.api, answer.body.token, answer.body.user);
}

/**
 * Two real API processes (`node backend/dist/main.js`) on one database: a command made on one
 * reaches an SSE client of the other, through PostgreSQL LISTEN/NOTIFY on the event log.
 */
describe('live updates across two API instances', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let keeper: Client | undefined;
  let dataDir: string | undefined;
  let a: Instance | undefined;
  let b: Instance | undefined;
  const streams: SseStream[] = [];

  beforeAll(
    async () => {
      await promisify(execFile)('npx', ['tsc', '-b', 'libs/domain', 'backend'], {
        cwd: ROOT,
        timeout: BUILD_TIMEOUT_MS,
      });
      database = await createTestDatabase();
      // A session in the database marks it as in use: other test runs sweep unused af_test_ ones.
      keeper = await keepInUse(database.url);
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'af-live-multi-'));
      const [portA, portB] = [await freePort(), await freePort()];
      // One after the other: the first seeds the empty store, the second finds it seeded.
      a = startInstance('instance A', portA, database.url, dataDir);
      await waitUntilServing(a);
      b = startInstance('instance B', portB, database.url, dataDir);
      await waitUntilServing(b);
    },
    BUILD_TIMEOUT_MS + 2 * START_TIMEOUT_MS,
  );

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await Promise.all([stop(a), stop(b)]);
    await keeper?.end().catch(() => undefined);
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 30_000);

  it(
    "delivers a command made on instance A to instance B's stream, and the other way round",
    async () => {
      const [adminA, adminB, leeA, leeB] = await Promise.all([
        login(a!, 'admin'),
        login(b!, 'admin'),
        login(a!, 'dr.lee'),
        login(b!, 'dr.lee'),
      ]);
      const onB = await SseStream.open(`${b!.api}/events`, { token: adminB.token });
      const leeOnB = await SseStream.open(`${b!.api}/events`, { token: leeB.token });
      const onA = await SseStream.open(`${a!.api}/events`, { token: adminA.token });
      streams.push(onB, leeOnB, onA);
      await Promise.all(streams.map((s) => s.until(() => s.lastEventId !== '', 'the first id')));

      const latencies: number[] = [];
      const commandTimes: number[] = [];
      /** Samples taken while someone else's long transaction held every reader on the server back. */
      const heldBack: string[] = [];
      const watchHolders = () => {
        const started = Date.now();
        return longTransactionOnServer(500).then((holder) => {
          if (holder) heldBack.push(`${holder} (sample at +${Date.now() - started} ms)`);
        });
      };
      // A doctor's new case on A: B's manager stream gets the case and the manager alert; B's
      // doctor stream gets the case.
      let sentAt = Date.now();
      let watching = watchHolders();
      const created = await leeA.post('/cases', {
        patientName: 'Across Instances',
        doctorName: 'Dr. Sarah Lee',
        clinicName: 'Bright Smiles',
        priority: 'High',
      });
      commandTimes.push(Date.now() - sentAt);
      expect(created.status).toBe(201);
      const id: string = created.body.id;
      const message = await onB.waitForEvent('case_created', id, ARRIVAL_TIMEOUT_MS);
      latencies.push(message.receivedAt - sentAt);
      await watching;
      expect(message.data).toEqual(summaryOf(created.body));
      expect((await onB.waitForEvent('manager_alert', id, ARRIVAL_TIMEOUT_MS)).data.title).toBe(
        'New case submitted',
      );
      expect((await leeOnB.waitForEvent('case_created', id, ARRIVAL_TIMEOUT_MS)).id).toBe(message.id);

      // More commands on A, each timed to its message on B.
      for (let n = 1; n <= 5; n++) {
        sentAt = Date.now();
        watching = watchHolders();
        const noted = await adminA.post(`/cases/${id}/notes`, { text: `note ${n} from A` });
        commandTimes.push(Date.now() - sentAt);
        expect(noted.status).toBe(201);
        const update = await onB.waitFor(
          (m) => m.event === 'case_updated' && m.data.id === id && m.data.version === noted.body.version,
          `note ${n} on B`,
          ARRIVAL_TIMEOUT_MS,
        );
        latencies.push(update.receivedAt - sentAt);
        await watching;
        expect(update.data).toEqual(summaryOf(noted.body));
      }

      // And from B to A.
      sentAt = Date.now();
      const held = await adminB.post(`/cases/${id}/hold`);
      expect(held.status).toBe(200);
      const onHold = await onA.waitFor(
        (m) => m.event === 'case_updated' && m.data.id === id && m.data.onHold === true,
        'the hold on A',
        ARRIVAL_TIMEOUT_MS,
      );
      const reverse = onHold.receivedAt - sentAt;
      expect((await onA.waitForEvent('manager_alert', id, ARRIVAL_TIMEOUT_MS)).data.title).toBe(
        'New case submitted',
      );

      const sorted = [...latencies].sort((x, y) => x - y);
      console.log(
        `cross-instance latency, command sent on A → SSE message on B (incl. the command itself): ` +
          `${latencies.join(', ')} ms (median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms; ` +
          `the commands' own answers took ${commandTimes.join(', ')} ms); ` +
          `B → A: ${reverse} ms` +
          (heldBack.length
            ? `; long transactions elsewhere on the server meanwhile: ${heldBack.join('; ')}`
            : ''),
      );
    },
    LIVE_TEST_TIMEOUT_MS,
  );

  it(
    'closes its streams when an instance shuts down, and the client resumes on the other one',
    async () => {
      const admin = await login(b!, 'admin');
      const stream = await SseStream.open(`${b!.api}/events`, { token: admin.token });
      streams.push(stream);
      await stream.until(() => stream.lastEventId !== '', 'the first id');
      const resumeFrom = stream.lastEventId;

      await stop(b);
      await stream.ended;
      expect(stream.endedBy).toBe('server');
      expect(stream.retries.length).toBeGreaterThanOrEqual(2);
      // A clean exit: main's own handler exits 0, Nest's shutdown hook re-raises the SIGTERM.
      const { code, signal } = await b!.exited;
      expect(code === 0 || signal === 'SIGTERM').toBe(true);

      // A change while the client has no connection, then a reconnect to A with its Last-Event-ID.
      const adminA = await login(a!, 'admin');
      const noted = await adminA.post('/cases/CA-2024-001/notes', { text: 'while B was gone' });
      const resumed = await SseStream.open(`${a!.api}/events`, {
        token: adminA.token,
        lastEventId: resumeFrom,
      });
      streams.push(resumed);
      const update = await resumed.waitForEvent('case_updated', 'CA-2024-001', ARRIVAL_TIMEOUT_MS);
      expect(update.data).toEqual(summaryOf(noted.body));
    },
    LIVE_TEST_TIMEOUT_MS,
  );
});
