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
import { eventually, LIVE_TEST_TIMEOUT_MS, SseStream } from '../../../test/support/sse';
import { startTestApp, type TestApp } from '../../../test/support/test-app';
import { createApp } from '../app';
import { loadConfig } from '../config/config';
import { EventStore, type Checkpoint, type RecordedEvent } from '../event-store/event-store';
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

  /** The last committed event in commit-safe order, whether or not it is safe to read yet. */
  async function lastKey(): Promise<Checkpoint | null> {
    const { rows } = await db.query(
      `SELECT transaction_id::text AS "transactionId", global_position::text AS position FROM events
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
    // The last in commit-safe order: not the highest position after a slow transaction's commit.
    const last = await lastKey();
    // With nobody subscribed the tailer reads nothing: it moves to the end as a new stream does.
    const deadline = Date.now() + 10_000;
    for (;;) {
      tailer.wake();
      await tailer.catchUp();
      if (compareKeys(tailer.position, last) === 0) return;
      if (Date.now() > deadline) throw new Error("timed out waiting for A's tailer at the end of the log");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The events of every segment `app`'s LiveLog reads from now on, in the order read. */
  function captureReads(app: INestApplication): { events: RecordedEvent[]; stop: () => void } {
    const log = app.get(LiveLog);
    const read = log.read.bind(log);
    const events: RecordedEvent[] = [];
    const spy = jest.spyOn(log, 'read').mockImplementation(async (after, limit) => {
      const segment = await read(after, limit);
      events.push(...segment.events);
      return segment;
    });
    return { events, stop: () => spy.mockRestore() };
  }

  /** The rows the commit-safe reads of `app`'s LiveLog (not its other readers) return from now on. */
  function captureRowsRead(app: INestApplication): { rows: Record<string, unknown>[]; stop: () => void } {
    const dataSource = app.get(DataSource);
    const query = dataSource.query.bind(dataSource);
    const rows: Record<string, unknown>[] = [];
    const spy = jest.spyOn(dataSource, 'query').mockImplementation((async (
      sql: string,
      params?: unknown[],
    ) => {
      // Called in the same synchronous step as LiveLog.read: its frame is on the stack.
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 50;
      const stack = new Error().stack ?? '';
      Error.stackTraceLimit = limit;
      const result = await query(sql, params);
      if (/FROM events WHERE transaction_id < pg_snapshot_xmin/.test(sql) && stack.includes('LiveLog'))
        rows.push(...result);
      return result;
    }) as typeof dataSource.query);
    return { rows, stop: () => spy.mockRestore() };
  }

  /** The log after `start` in commit-safe order, every body read from the database. */
  async function logAfter(start: Checkpoint | null): Promise<RecordedEvent[]> {
    return a.app.get(EventStore).readAll(start, 100_000);
  }

  /** Wakes `tailer` until it has read up to the log's last event. */
  async function tailerAtEnd(tailer: LogTailer, what: string): Promise<void> {
    const last = await lastKey();
    await eventually(() => {
      tailer.wake();
      return compareKeys(tailer.position, last) === 0;
    }, what);
  }

  /**
   * Runs `work` while a transaction holds every commit-safe reader back (pg_snapshot_xmin), so
   * whatever `work` commits is read only after `work` has returned.
   */
  async function holdingReadersBack<T>(work: () => Promise<T>): Promise<T> {
    const holder = new Client({ connectionString: a.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_current_xact_id()');
      const result = await work();
      await holder.query('COMMIT');
      return result;
    } finally {
      await holder.end();
    }
  }

  async function newCase(client: ApiClient, patientName: string): Promise<string> {
    const created = await client.post('/cases', {
      patientName,
      doctorName: 'Dr. Lee',
      clinicName: 'Clinic',
      priority: 'Normal',
    });
    expect(created.status).toBe(201);
    return created.body.id;
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
  it('hands its own commits to its streams from memory, as a read of their rows gives them', async () => {
    const admin = await a.login('admin');
    const store = a.app.get(EventStore);
    const start = a.app.get(LogTailer).position;
    const reads = captureReads(a.app);
    const rowsRead = captureRowsRead(a.app);
    try {
      const created = await admin.post('/cases', {
        patientName: 'Kept in memory',
        doctorName: 'Dr. Lee',
        clinicName: 'Clinic',
        priority: 'Normal',
      });
      expect(created.status).toBe(201);
      // Readers held back until the note's append has answered: the tailer cannot read it before
      // the event store knows it (a NOTIFY may otherwise overtake the append's answer).
      const noted = await holdingReadersBack(() =>
        admin.post(`/cases/${created.body.id}/notes`, { text: 'Own note' }),
      );
      expect(noted.status).toBe(201);
      await tailerAtEnd(a.app.get(LogTailer), "A's own commits");
      await waitFor(
        () => received.some((m) => m.data.id === created.body.id && m.data.version === noted.body.version),
        'the case message',
      );
      const own = reads.events.filter((event) => event.streamId === `case-${created.body.id}`);
      expect(own.map((event) => event.type)).toEqual(['CaseCreated', 'NoteAdded']);
      // The note's read left out its data and metadata (no bytes, nothing to decrypt)…
      const rows = rowsRead.rows.filter((row) => own.some((event) => event.position === row.position));
      expect(rows).toHaveLength(2);
      expect(rows.map((row) => [row.type, row.data === null, row.metadata === null])).toEqual([
        // A creation commits in a transaction of its own (with its id's reservation): read back.
        ['CaseCreated', false, false],
        ['NoteAdded', true, true],
      ]);
      // …and what reached the stream is what a read of the rows gives, patient data opened.
      expect(reads.events).toEqual(await logAfter(start));
      expect(own[0].data.patientName).toBe('Kept in memory');
      expect(own[1].data.text).toBe('Own note');
      expect(own[1].metadata.actor).toEqual({ username: 'admin', role: 'Manager' });
      // What the tailer has read is not kept: its next read, from where it stands, forgets it.
      await store.readAll(a.app.get(LogTailer).position, 100, { ownFromMemory: true });
      expect(store.ownCommits.size).toBe(0);
    } finally {
      reads.stop();
      rowsRead.stop();
    }
  });

  it('two instances writing interleaved: each tailer reads every event of both, once, in commit-safe order', async () => {
    const bTailer = b.get(LogTailer);
    const unsubscribeB = bTailer.subscribe({ active: () => true, deliver: () => undefined });
    try {
      await tailerAtEnd(bTailer, "B's tailer at the end");
      const aTailer = a.app.get(LogTailer);
      const [aStart, bStart] = [aTailer.position, bTailer.position];
      const captured = [a.app, b].map((app) => ({ reads: captureReads(app), rows: captureRowsRead(app) }));
      const aAdmin = await a.login('admin');
      const [onA, onB, shared] = [
        await newCase(aAdmin, 'A'),
        await newCase(bApi, 'B'),
        await newCase(aAdmin, 'AB'),
      ];
      const notes = (client: ApiClient, caseId: string, label: string) =>
        (async () => {
          for (let n = 0; n < 5; n++)
            expect((await client.post(`/cases/${caseId}/notes`, { text: `${label} ${n}` })).status).toBe(201);
        })();
      try {
        const writes = () =>
          Promise.all([
            notes(aAdmin, onA, 'A'),
            notes(bApi, onB, 'B'),
            notes(aAdmin, shared, 'A on shared'),
            notes(bApi, shared, 'B on shared'),
          ]);
        await holdingReadersBack(writes);
        await tailerAtEnd(aTailer, "A's tailer at the end");
        await tailerAtEnd(bTailer, "B's tailer at the end");
        const [aLog, bLog] = [await logAfter(aStart), await logAfter(bStart)];
        expect(aLog.filter((event) => event.type === 'NoteAdded')).toHaveLength(20);
        // Every event of both instances, each once, in the log's commit-safe order, whole.
        expect(captured[0].reads.events).toEqual(aLog);
        expect(captured[1].reads.events).toEqual(bLog);
        // Each took its own events from memory and read the other's bodies.
        captured.forEach(({ rows }, instance) => {
          const notesRead = rows.rows.filter((row) => row.type === 'NoteAdded');
          const fromMemory = notesRead.filter((row) => row.data === null);
          const bytes = JSON.stringify(rows.rows).length;
          console.log(
            `instance ${'AB'[instance]}: ${rows.rows.length} rows read (${bytes} characters of JSON), ` +
              `${fromMemory.length} of them without bodies (own events, from memory)`,
          );
          // Its own 10 notes from memory, the other's 10 read whole.
          expect(notesRead).toHaveLength(20);
          expect(fromMemory).toHaveLength(10);
          const ownCase = `case-${instance === 0 ? onA : onB}`;
          expect(fromMemory.filter((row) => row.stream_id === ownCase)).toHaveLength(5);
          const otherCase = `case-${instance === 0 ? onB : onA}`;
          expect(notesRead.filter((row) => row.stream_id === otherCase && row.data === null)).toEqual([]);
        });
      } finally {
        for (const { reads, rows } of captured) {
          reads.stop();
          rows.stop();
        }
      }
    } finally {
      unsubscribeB();
    }
  });

  it('loses and repeats nothing when its connections are killed while own commits wait to be read', async () => {
    unsubscribe();
    const tailer = a.app.get(LogTailer);
    const admin = await a.login('admin');
    const stream = await SseStream.open(`${a.apiUrl}/events`, { token: admin.token });
    const holder = new Client({ connectionString: a.databaseUrl });
    await holder.connect();
    try {
      const [onA, onB] = [await newCase(admin, 'Killed A'), await newCase(bApi, 'Killed B')];
      await tailerAtEnd(tailer, "A's tailer at the end");
      await stream.until(() => stream.lastEventId !== '', 'an id');
      const start = tailer.position;
      const reads = captureReads(a.app);
      try {
        const versions = new Map<string, number>();
        const note = async (client: ApiClient, caseId: string, text: string) => {
          const answer = await client.post(`/cases/${caseId}/notes`, { text });
          expect(answer.status).toBe(201);
          versions.set(caseId, answer.body.version);
        };
        // An open transaction holds every reader back: these commits wait, unread, A's in memory.
        await holder.query('BEGIN');
        await holder.query('SELECT pg_current_xact_id()');
        const buffered = a.app.get(EventStore).ownCommits.size;
        for (let n = 0; n < 3; n++) {
          await note(admin, onA, `before the kill ${n}`);
          await note(bApi, onB, `before the kill ${n}`);
        }
        expect(a.app.get(EventStore).ownCommits.size).toBe(buffered + 3);
        // Every connection of both instances dies: the LISTEN connections and the pools' readers.
        const [aListener, bListener] = [tailer.listenerPid, b.get(LogTailer).listenerPid];
        await db.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> $1`,
          [(await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid],
        );
        await waitFor(
          () =>
            ![undefined, aListener].includes(tailer.listenerPid) &&
            ![undefined, bListener].includes(b.get(LogTailer).listenerPid),
          'both LISTEN connections back',
        );
        for (let n = 0; n < 3; n++) {
          await note(admin, onA, `after the kill ${n}`);
          await note(bApi, onB, `after the kill ${n}`);
        }
        await holder.query('COMMIT');
        await tailerAtEnd(tailer, "A's tailer at the end");
        // The tailer read every event once, in commit-safe order, whole.
        expect(reads.events).toEqual(await logAfter(start));
        for (const [caseId, version] of versions)
          await stream.waitFor(
            (m) => m.data?.id === caseId && m.data.version === version,
            `${caseId} v${version}`,
          );
        // One case message per id (an alert may share its event's id).
        const ids = stream.messages
          .filter((m) => m.event.startsWith('case_') && BigInt(m.id) > BigInt(start!.position))
          .map((m) => m.id);
        expect(new Set(ids).size).toBe(ids.length);
        const keys = reads.events.map((event) => event.position);
        expect(ids.map((id) => keys.indexOf(id))).toEqual(
          [...ids.map((id) => keys.indexOf(id))].sort((x, y) => x - y),
        );
        expect(ids.every((id) => keys.includes(id))).toBe(true);

        // A client that saw everything up to where the tailer stood before resumes and gets the rest.
        const from = start!.position;
        const resumed = await SseStream.open(`${a.apiUrl}/events`, { token: admin.token, lastEventId: from });
        try {
          for (const [caseId, version] of versions)
            await resumed.waitFor(
              (m) => m.data?.id === caseId && m.data.version === version,
              `${caseId} v${version} on resuming`,
            );
          expect(resumed.of('cases_refresh')).toEqual([]);
          expect(resumed.messages.every((m) => keys.includes(m.id))).toBe(true);
        } finally {
          resumed.close();
        }
      } finally {
        reads.stop();
      }
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      stream.close();
    }
  });
});
