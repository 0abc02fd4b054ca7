import type { INestApplication } from '@nestjs/common';
import {
  evolveUser,
  userStreamId,
  type Actor,
  type UserEventData,
  type UserState,
} from '@alignerflow/domain';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ApiClient } from '../../../test/support/http';
import { eventually, LIVE_TEST_TIMEOUT_MS } from '../../../test/support/sse';
import { startTestApp, type TestApp } from '../../../test/support/test-app';
import { createApp } from '../app';
import { loadConfig } from '../config/config';
import { EventStore, type Checkpoint } from '../event-store/event-store';
import { UserViewProjection } from '../users/user-view.projection';
import { LogListener } from '../event-store/log-listener';
import { LiveLog, type LiveMessage } from './live-log';
import { LogTailer } from './log-tailer.service';
import { compareKeys } from './sse-frames';

jest.setTimeout(LIVE_TEST_TIMEOUT_MS);

const STAFF: Actor = { username: 'admin', role: 'Manager' };

interface Received {
  id: string;
  event: string;
  data: any;
  at: number;
}

/**
 * Two application instances on one database. The fallback poll is set to an hour, so the only
 * way a change made on instance B reaches instance A's tailer is PostgreSQL LISTEN/NOTIFY.
 */
describe('LogTailer', () => {
  let a: TestApp;
  let b: INestApplication;
  let bApi: ApiClient;
  let db: Client;
  let received: Received[];
  let unsubscribe: () => void;
  let safeBeforeB: Checkpoint | null;
  let bStart: Checkpoint | null;

  /** The last event a commit-safe reader may see now. */
  async function commitSafeEnd(): Promise<Checkpoint | null> {
    const { rows } = await db.query(
      `SELECT transaction_id::text AS "transactionId", global_position::text AS position FROM events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`,
    );
    return rows[0] ?? null;
  }

  /**
   * Brings A's tailer to the last committed event. With the poll off, events that were not yet
   * safe to read when a notification came (another transaction on the server still running) wait
   * for the next wake-up; here the test gives it.
   */
  async function settle(): Promise<void> {
    const tailer = a.app.get(LogTailer);
    const { rows } = await db.query('SELECT max(global_position)::text AS last FROM events');
    // With nobody subscribed the tailer reads nothing: it moves to the end as a new stream does.
    const deadline = Date.now() + 10_000;
    for (;;) {
      tailer.wake();
      await tailer.catchUp();
      if (tailer.position?.position === rows[0].last) return;
      if (Date.now() > deadline) throw new Error("timed out waiting for A's tailer at the end of the log");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function loginOnB(username: string): Promise<ApiClient> {
    const answer = await new ApiClient(bApi.apiUrl).post('/auth/login', { username, password: 'demo' });
    return new ApiClient(bApi.apiUrl, answer.body.token, answer.body.user);
  }

  async function waitFor(check: () => boolean, what: string): Promise<void> {
    await eventually(check, what).catch((error: Error) => {
      throw new Error(`${error.message}; received: ${JSON.stringify(received)}`);
    });
  }

  beforeAll(async () => {
    process.env.LIVE_POLL_MS = '3600000';
    try {
      a = await startTestApp();
      db = new Client({ connectionString: a.databaseUrl });
      await db.connect();
      // Another session's open transaction on the server holds the safe end back: wait it out.
      const deadline = Date.now() + 60_000;
      while ((safeBeforeB = await commitSafeEnd()) === null && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const config = loadConfig({
        DATABASE_URL: a.databaseUrl,
        // A's data directory: the same master key, so each reads the other's cases.
        DATA_DIR: a.dataDir,
        DEMO_DATA: '1',
        ADMIN_PASSWORD: 'demo',
        PORT: '0',
      });
      b = await createApp({ config, databaseUrl: a.databaseUrl, logger: false, spaDir: '/nonexistent' });
      await b.listen(0, '127.0.0.1');
      bStart = b.get(LogTailer).position;
    } finally {
      delete process.env.LIVE_POLL_MS;
    }
    const { port } = b.getHttpServer().address() as AddressInfo;
    bApi = new ApiClient(`http://127.0.0.1:${port}/api`);
    bApi = await loginOnB('admin');
  });

  beforeEach(async () => {
    await settle();
    received = [];
    unsubscribe = a.app.get(LogTailer).subscribe({
      active: () => true,
      deliver: (messages: LiveMessage[]) => {
        for (const message of messages) {
          const frame = message.frameFor(STAFF);
          if (!frame) continue;
          const data = /^data: (.*)$/m.exec(frame.toString())![1];
          received.push({
            id: message.key.position,
            event: message.event,
            data: JSON.parse(data),
            at: Date.now(),
          });
        }
      },
    });
  });

  afterEach(() => unsubscribe());

  afterAll(async () => {
    await db?.end();
    await b?.close();
    await a?.close();
  });

  it('starts at the end of the log instead of replaying history to nobody', async () => {
    // B started on a seeded database: its tailer began at least where the log safely ended before.
    expect(safeBeforeB).not.toBeNull();
    expect(bStart).not.toBeNull();
    expect(compareKeys(bStart, safeBeforeB)).toBeGreaterThanOrEqual(0);
  });

  it("hears of another instance's command through NOTIFY alone", async () => {
    const before = Date.now();
    const created = await bApi.post('/cases', {
      patientName: 'Notified',
      doctorName: 'Dr. Lee',
      clinicName: 'Clinic',
      priority: 'Normal',
    });
    expect(created.status).toBe(201);
    await waitFor(
      () => received.some((m) => m.event === 'case_created' && m.data.id === created.body.id),
      'case_created',
    );
    const message = received.find((m) => m.event === 'case_created')!;
    // The summary of the case: its notes counted, not carried.
    const { notes, ...fields } = created.body;
    expect(message.data).toEqual({ ...fields, noteCount: notes.length });
    console.log(
      `instance B's command reached instance A's tailer ${message.at - before} ms after it was sent`,
    );
  });

  it('reconnects its LISTEN connection and catches up on what was appended meanwhile', async () => {
    const tailer = a.app.get(LogTailer);
    const pid = tailer.listenerPid;
    expect(pid).toEqual(expect.any(Number));
    await db.query('SELECT pg_terminate_backend($1)', [pid]);
    // Appended while A is not listening: only the catch-up after the reconnect can bring it.
    const noted = await bApi.post('/cases/CA-2024-001/notes', { text: 'While the listener was down' });
    expect(noted.status).toBe(201);
    await waitFor(
      () => tailer.listenerPid !== undefined && tailer.listenerPid !== pid,
      'a new LISTEN connection',
    );
    await waitFor(
      () => received.some((m) => m.event === 'case_updated' && m.data.version === noted.body.version),
      'the note made while disconnected',
    );
    // And it listens again.
    const again = await bApi.post('/cases/CA-2024-001/notes', { text: 'After the reconnect' });
    await waitFor(
      () => received.some((m) => m.event === 'case_updated' && m.data.version === again.body.version),
      'the note made after the reconnect',
    );
  });

  it('reads nothing while no stream is open, and a stream opened after a lost LISTEN connection misses nothing', async () => {
    unsubscribe();
    const tailer = a.app.get(LogTailer);
    const reads = jest.spyOn(a.app.get(LiveLog), 'read');
    // Told after the tailer, in the same call: had the tailer read, its read would have started.
    let woken = 0;
    const probe = a.app.get(LogListener).subscribe({ appended: () => woken++ });
    try {
      await probe.ready;
      const quiet = await bApi.post('/cases/CA-2024-001/notes', { text: 'Nobody watches' });
      expect(quiet.status).toBe(201);
      await waitFor(() => woken > 0, 'the wake-up');
      expect(reads).not.toHaveBeenCalled();

      // The LISTEN connection dies; a command lands while it is down; then a stream opens.
      const pid = tailer.listenerPid;
      await db.query('SELECT pg_terminate_backend($1)', [pid]);
      const unheard = await bApi.post('/cases/CA-2024-001/notes', { text: 'While down' });
      expect(unheard.status).toBe(201);
      await tailer.catchUp();
      const start = tailer.position;
      unsubscribe = tailer.subscribe({
        active: () => true,
        deliver: (messages: LiveMessage[]) => {
          for (const message of messages)
            received.push({ id: message.key.position, event: message.event, data: {}, at: Date.now() });
        },
      });
      tailer.resume();
      const after = await bApi.post('/cases/CA-2024-001/notes', { text: 'Seen live' });
      await waitFor(() => tailer.listenerPid !== undefined && tailer.listenerPid !== pid, 'a new LISTEN');
      await eventually(() => {
        tailer.wake();
        return received.some((m) => m.event === 'case_updated');
      }, 'the note made after the stream opened');
      const [{ position }] = await db
        .query(
          `SELECT max(global_position)::text AS position FROM events WHERE stream_id = 'case-CA-2024-001'`,
        )
        .then((result) => result.rows);
      await eventually(() => {
        tailer.wake();
        return received.some((m) => m.id === position);
      }, "the last note's message");
      expect(after.status).toBe(201);
      // Everything delivered lies after the stream's start, in order.
      const ids = received.map((m) => BigInt(m.id));
      expect(ids.every((id) => id > BigInt(start?.position ?? '0'))).toBe(true);
      expect([...ids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(ids);
    } finally {
      probe.unsubscribe();
      reads.mockRestore();
    }
  });

  it('never skips an event that a slower transaction commits with a higher position but an older transaction id', async () => {
    const dataSource = b.get(DataSource);
    const store = b.get(EventStore);
    const slow = dataSource.createQueryRunner();
    await slow.connect();
    let slowPosition: string;
    try {
      await slow.startTransaction();
      // The slow transaction takes its id now…
      await slow.query('SELECT pg_current_xact_id()');
      // …a fast one commits after it…
      const fast = await bApi.post('/cases/CA-2024-002/notes', { text: 'fast' });
      expect(fast.status).toBe(201);
      // …and then the slow one appends (a later position) and commits.
      const streamId = userStreamId('tech');
      const history = await store.readStream(streamId, slow);
      const state = history.reduce<UserState | null>(
        (current, event) => evolveUser(current, event as unknown as UserEventData),
        null,
      );
      const change: UserEventData = { type: 'UserUpdated', data: { changes: { email: 'tech@lab.example' } } };
      const [appended] = await store.append(
        streamId,
        state!.version,
        [change],
        { actor: STAFF, correlationId: 'slow' },
        slow,
      );
      await b.get(UserViewProjection).apply(evolveUser(state, change), appended.position, slow);
      slowPosition = appended.position;
      await slow.commitTransaction();
    } finally {
      if (slow.isTransactionActive) await slow.rollbackTransaction();
      await slow.release();
    }

    await waitFor(
      () =>
        received.some((m) => m.event === 'users_refresh') && received.some((m) => m.event === 'case_updated'),
      'both changes',
    );
    const order = received
      .map((m) => m.event)
      .filter((event) => event === 'users_refresh' || event === 'case_updated');
    // Commit-safe order: the older transaction first, although its position is higher.
    expect(order).toEqual(['users_refresh', 'case_updated']);
    const users = received.find((m) => m.event === 'users_refresh')!;
    const note = received.find((m) => m.event === 'case_updated')!;
    expect(users.id).toBe(slowPosition!);
    expect(BigInt(users.id)).toBeGreaterThan(BigInt(note.id));
    expect(users.data.find((user: { username: string }) => user.username === 'tech').email).toBe(
      'tech@lab.example',
    );
  });
});
