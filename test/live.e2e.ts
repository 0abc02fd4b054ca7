import { Client } from 'pg';
import http from 'node:http';
import { caseStreamId } from '@alignerflow/domain';
import { CaseImportService } from '../backend/src/backup/case-import.service';
import { EventStore, withTransaction } from '../backend/src/event-store/event-store';
import { LiveStreamService } from '../backend/src/live/live-stream.service';
import { DataSource } from 'typeorm';
import { createCase } from './support/case-road';
import type { ApiClient } from './support/http';
import { eventually, LIVE_TEST_TIMEOUT_MS, SseStream, type SseMessage } from './support/sse';
import { startTestApp, type TestApp } from './support/test-app';

jest.setTimeout(LIVE_TEST_TIMEOUT_MS);

/** A short heartbeat, so the test sees several without waiting 20 s. */
const HEARTBEAT_MS = 300;

/** What GET /cases and the live stream carry of a whole case: no notes, their count. */
function summaryOf({ notes, ...fields }: { notes: unknown[] }) {
  return { ...fields, noteCount: notes.length };
}

/**
 * A client reconnects with Last-Event-ID while four managers keep putting cases on hold and
 * resuming them. Each of those events has its own manager_alert (alerts never collapse), so the
 * alerts received must be exactly the events after the resume point: none missing, none twice.
 */
async function handOverWhileWriting(
  lab: TestApp,
  admin: ApiClient,
  rep: ApiClient,
  open: (client: ApiClient, options?: { lastEventId?: string }) => Promise<SseStream>,
  fromStart = false,
): Promise<void> {
  const ids: string[] = [];
  // fromStart: from before the four cases were created, a longer replay (the oldest id the
  // server still replays from is where its tailer started; older ones get a full refresh).
  const early = fromStart ? await open(admin) : undefined;
  await early?.until(() => early.lastEventId !== '', 'an id');
  early?.close();
  for (let n = 0; n < 4; n++) ids.push((await createCase(rep, { patientName: `Busy ${n}` })).id);
  const first = await open(admin);
  await first.until(() => first.lastEventId !== '', 'an id');
  const resumeFrom = early?.lastEventId ?? first.lastEventId;
  first.close();

  // The stream opens once the writing has begun: the first hold is committed.
  let begun!: () => void;
  const firstHold = new Promise<void>((resolve) => (begun = resolve));
  const toggle = async (id: string) => {
    for (let n = 0; n < 10; n++) {
      const answer = await admin.post(`/cases/${id}/${n % 2 ? 'resume' : 'hold'}`);
      expect(answer.status).toBe(200);
      begun();
    }
  };
  const writing = Promise.all(ids.map(toggle));
  await Promise.race([firstHold, writing]);
  const [stream] = await Promise.all([open(admin, { lastEventId: resumeFrom }), writing]);

  const db = new Client({ connectionString: lab.databaseUrl });
  await db.connect();
  let expected: { position: string; stream_id: string; type: string; version: number }[];
  try {
    const { rows } = await db.query(
      `SELECT global_position::text AS position, stream_id, type, stream_version AS version FROM events
        WHERE stream_id = ANY($1) AND type IN ('CaseHeld', 'CaseResumed') ORDER BY global_position`,
      [ids.map(caseStreamId)],
    );
    expected = rows;
  } finally {
    await db.end();
  }
  expect(expected).toHaveLength(40);
  const isHoldAlert = (m: SseMessage) =>
    m.event === 'manager_alert' &&
    ids.includes(m.data.caseId) &&
    /^Case (on hold|resumed)$/.test(m.data.title);
  await stream.until(() => stream.messages.filter(isHoldAlert).length >= 40, '40 hold/resume alerts');
  const created = (await createCase(admin, { patientName: 'Hand-over sentinel' })).id;
  await stream.waitForEvent('case_created', created);

  const alerts = stream.messages.filter(isHoldAlert);
  expect(alerts.map((m) => m.id).sort()).toEqual(expected.map((e) => e.position).sort());
  for (const alert of alerts) {
    const event = expected.find((e) => e.position === alert.id)!;
    expect(alert.data.title).toBe(event.type === 'CaseHeld' ? 'Case on hold' : 'Case resumed');
  }
  for (const id of ids) {
    const updates = stream.messages.filter(
      (m) => (m.event === 'case_created' || m.event === 'case_updated') && m.data.id === id,
    );
    // Never the same event twice, never older state after newer, and the latest state last.
    expect(new Set(updates.map((m) => m.id)).size).toBe(updates.length);
    const versions = updates.map((m) => m.data.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    const final = (await admin.get(`/cases/${id}`)).body;
    expect(updates.at(-1)!.data).toEqual(summaryOf(final));
    // A message carries at least the state of the event it is numbered by (a replay sends the
    // current state, which may be newer).
    for (const message of updates) {
      const numberedBy = expected.find((e) => e.position === message.id);
      if (numberedBy) expect(message.data.version).toBeGreaterThanOrEqual(numberedBy.version);
    }
  }
}

describe('GET /api/events (live stream)', () => {
  let lab: TestApp;
  let db: Client;
  let admin: ApiClient, rep: ApiClient, designer: ApiClient, drLee: ApiClient, drPatel: ApiClient;
  const streams: SseStream[] = [];

  async function open(client: ApiClient, options: { lastEventId?: string; lastEventIdQuery?: string } = {}) {
    const stream = await SseStream.open(`${lab.apiUrl}/events`, { token: client.token, ...options });
    streams.push(stream);
    return stream;
  }

  /** The global positions of a case's events, oldest first. */
  async function positions(caseId: string): Promise<{ position: string; type: string }[]> {
    const { rows } = await db.query(
      'SELECT global_position::text AS position, type FROM events WHERE stream_id = $1 ORDER BY stream_version',
      [caseStreamId(caseId)],
    );
    return rows;
  }

  /**
   * Messages come in log order: once a sentinel change made after everything else has arrived,
   * whatever the earlier changes were going to produce has arrived too.
   */
  async function sentinel(stream: SseStream, by: ApiClient = admin): Promise<SseMessage> {
    const { id } = await createCase(by, { patientName: `Sentinel ${Date.now()}` });
    return stream.waitForEvent('case_created', id);
  }

  beforeAll(async () => {
    process.env.LIVE_HEARTBEAT_MS = String(HEARTBEAT_MS);
    try {
      lab = await startTestApp();
    } finally {
      delete process.env.LIVE_HEARTBEAT_MS;
    }
    db = new Client({ connectionString: lab.databaseUrl });
    await db.connect();
    [admin, rep, designer, drLee, drPatel] = await Promise.all(
      ['admin', 'rep', 'designer', 'dr.lee', 'dr.patel'].map((name) => lab.login(name)),
    );
  });

  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });

  afterAll(async () => {
    await db?.end();
    await lab?.close();
  });

  it('needs a session', async () => {
    const answer = await lab.anonymous.get('/events');
    expect(answer).toMatchObject({ status: 401, body: { error: 'Not signed in.' } });
  });

  it('answers as an event stream that proxies must not buffer, with a retry hint and the current position', async () => {
    const stream = await open(admin);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get('cache-control')).toBe('no-store');
    expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.response.headers.get('connection')).toBe('keep-alive');
    await stream.until(() => stream.lastEventId !== '', 'the first id');
    expect(stream.retries[0]).toBe(2000);
    const { rows } = await db.query('SELECT max(global_position)::text AS last FROM events');
    expect(stream.lastEventId).toBe(rows[0].last);
    expect(stream.messages).toEqual([]);
  });

  it('sends case_created, case_updated and case_deleted after each command, numbered by event position', async () => {
    const stream = await open(admin);
    const created = await createCase(rep, { patientName: 'Live Ada' });
    const id = created.id;
    const createdMessage = await stream.waitForEvent('case_created', id);
    // The message carries the summary GET /cases shows: the case without its notes, counted.
    expect(createdMessage.data).toEqual(summaryOf(created));

    const noted = await admin.post(`/cases/${id}/notes`, { text: 'Upper arch first.' });
    const updatedMessage = await stream.waitForEvent('case_updated', id);
    expect(updatedMessage.data).toEqual(summaryOf(noted.body));
    expect(updatedMessage.data).not.toHaveProperty('notes');
    expect(updatedMessage.data.noteCount).toBe(2);

    expect((await admin.delete(`/cases/${id}`)).status).toBe(204);
    const deletedMessage = await stream.waitForEvent('case_deleted', id);
    expect(deletedMessage.data).toEqual({ id });

    const events = await positions(id);
    expect(events.map((event) => event.type)).toEqual(['CaseCreated', 'NoteAdded', 'CaseDeleted']);
    expect([createdMessage.id, updatedMessage.id, deletedMessage.id]).toEqual(events.map((e) => e.position));
    // A case created by a representative tells the managers.
    const alert = await stream.waitForEvent('manager_alert', id);
    expect(alert).toMatchObject({
      id: events[0].position,
      data: { title: 'New case submitted', caseId: id, body: `${id} for Live Ada is waiting for approval.` },
    });
    await sentinel(stream);
    expect(stream.of('case_created', id)).toHaveLength(1);
    expect(stream.of('case_updated', id)).toHaveLength(1);
    expect(stream.of('case_deleted', id)).toHaveLength(1);
  });

  it('shows a doctor only their own cases and the alerts addressed to them', async () => {
    const [leeStream, patelStream, adminStream, designerStream] = await Promise.all(
      [drLee, drPatel, admin, designer].map((client) => open(client)),
    );
    // A new case by a doctor: assigned to them, and an alert for the managers only.
    const { id } = await createCase(drLee, { patientName: 'Grace Hopper' });
    await leeStream.waitForEvent('case_created', id);
    await adminStream.waitForEvent('case_created', id);
    const managerAlert = await adminStream.waitForEvent('manager_alert', id);
    expect(managerAlert.data).toEqual({
      title: 'New case submitted',
      body: `${id} for Grace Hopper is waiting for approval.`,
      caseId: id,
    });

    // A staff case without a doctor stays with the staff.
    const staffCase = (await createCase(rep, { patientName: 'Staff Only' })).id;
    await designerStream.waitForEvent('case_created', staffCase);

    // Approved for Dr. Lee, planned, and ready for the doctor: a doctor_alert to Dr. Lee alone.
    expect((await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.lee' })).status).toBe(200);
    await designer.put(`/cases/${id}/simulation`, {
      simulationVideoUrl: 'https://sim.example/video.mp4',
      simulationExternalLink: 'https://sim.example/3d',
    });
    const advanced = await designer.post(`/cases/${id}/advance`, { fromStatus: 'Digital Planning' });
    expect(advanced.body.status).toBe('Doctor Approval');
    const doctorAlert = await leeStream.waitForEvent('doctor_alert', id);
    expect(doctorAlert.data).toEqual({
      title: 'Treatment plan ready',
      body: `The treatment plan of Grace Hopper (${id}) is waiting for your approval.`,
      caseId: id,
      doctor: 'dr.lee',
    });
    const stageAdvanced = (await positions(id)).find((event) => event.type === 'StageAdvanced');
    expect(doctorAlert.id).toBe(stageAdvanced!.position);
    const latest = await leeStream.waitFor(
      (message) =>
        message.event === 'case_updated' &&
        message.data.id === id &&
        message.data.status === 'Doctor Approval',
      'the case at Doctor Approval',
    );
    expect(latest.data).toEqual(summaryOf(advanced.body));

    expect((await admin.delete(`/cases/${id}`)).status).toBe(204);
    await leeStream.waitForEvent('case_deleted', id);

    // Each stream has seen everything before its own sentinel.
    await Promise.all([
      sentinel(patelStream, drPatel),
      sentinel(leeStream, drLee),
      sentinel(adminStream),
      sentinel(designerStream),
    ]);
    const about = (stream: SseStream, caseId: string) =>
      stream.messages.filter((message) => message.data?.id === caseId || message.data?.caseId === caseId);
    expect(about(patelStream, id)).toEqual([]);
    expect(about(patelStream, staffCase)).toEqual([]);
    expect(about(leeStream, staffCase)).toEqual([]);
    for (const stream of [leeStream, patelStream]) {
      expect(stream.of('manager_alert')).toEqual([]);
      for (const message of stream.messages.filter((m) => m.event.startsWith('case_'))) {
        expect(message.event === 'case_deleted' || message.data.assignedDoctorUsername).toBeTruthy();
      }
    }
    expect(patelStream.of('doctor_alert')).toEqual([]);
    expect(leeStream.of('doctor_alert').map((message) => message.data.doctor)).toEqual(['dr.lee']);
    expect(about(patelStream, id)).toEqual([]);
    // Doctor alerts go to the doctor; staff see the case messages but not the doctor's alert.
    expect(adminStream.of('doctor_alert')).toEqual([]);
    expect(designerStream.of('manager_alert')).toEqual([]);
    expect(adminStream.of('case_updated', id).length).toBeGreaterThan(0);
  });

  it('sends users_refresh when users change, and a doctor only their own user', async () => {
    const [adminStream, leeStream, techStream] = await Promise.all([
      open(admin),
      open(drLee),
      open(await lab.login('tech')),
    ]);
    const created = await admin.post('/users', {
      username: 'live.tech',
      password: 'secret-Lantern-1',
      role: 'Technician',
    });
    expect(created.status).toBe(201);

    const forAdmin = await adminStream.waitForEvent('users_refresh');
    expect(forAdmin.data).toEqual((await admin.get('/users')).body);
    expect(forAdmin.data.map((user: { username: string }) => user.username)).toContain('live.tech');
    expect(JSON.stringify(forAdmin.data)).not.toMatch(/password|hash/i);
    expect((await techStream.waitForEvent('users_refresh')).data).toEqual(forAdmin.data);

    const forDoctor = await leeStream.waitForEvent('users_refresh');
    expect(forDoctor.data).toEqual([(await drLee.get('/users/dr.lee')).body]);
    expect(forDoctor.data[0].username).toBe('dr.lee');
    const [{ position }] = (
      await db.query(
        `SELECT global_position::text AS position FROM events WHERE stream_id = 'user-live.tech'`,
      )
    ).rows;
    expect(forAdmin.id).toBe(position);
    expect(forDoctor.id).toBe(position);
  });

  it('replays what a reconnecting client missed, each change once, then goes on live', async () => {
    const first = await open(admin);
    const watched = (await createCase(rep, { patientName: 'Resume Watched' })).id;
    const seen = await first.waitForEvent('case_created', watched);
    const doomed = (await createCase(rep, { patientName: 'Resume Doomed' })).id;
    await first.waitForEvent('case_created', doomed);
    const resumeFrom = first.lastEventId;
    expect(BigInt(resumeFrom)).toBeGreaterThanOrEqual(BigInt(seen.id));
    first.close();
    await first.ended;

    // While disconnected: a note, a new case by a doctor (with its manager alert), a deletion.
    const noted = await admin.post(`/cases/${watched}/notes`, { text: 'Missed note 1' });
    const noted2 = await admin.post(`/cases/${watched}/notes`, { text: 'Missed note 2' });
    const missed = (await createCase(drLee, { patientName: 'Resume Missed' })).id;
    await admin.delete(`/cases/${doomed}`);

    const second = await open(admin, { lastEventId: resumeFrom });
    const updated = await second.waitForEvent('case_updated', watched);
    expect(updated.data).toEqual(summaryOf(noted2.body));
    expect(updated.data.version).toBe(noted.body.version + 1);
    // Two notes, one message with the latest state, numbered by the last of them.
    expect(updated.id).toBe((await positions(watched)).at(-1)!.position);
    expect((await second.waitForEvent('case_created', missed)).data.patientName).toBe('Resume Missed');
    expect((await second.waitForEvent('manager_alert', missed)).data.title).toBe('New case submitted');
    expect((await second.waitForEvent('case_deleted', doomed)).data).toEqual({ id: doomed });

    // Then live, without a gap or a repeat at the hand-over.
    const live = await admin.post(`/cases/${watched}/notes`, { text: 'Live after replay' });
    await second.waitFor(
      (message) =>
        message.event === 'case_updated' &&
        message.data.id === watched &&
        message.data.version === live.body.version,
      'the live update',
    );
    await sentinel(second);
    expect(second.of('case_updated', watched)).toHaveLength(2);
    expect(second.of('case_created', missed)).toHaveLength(1);
    expect(second.of('manager_alert', missed)).toHaveLength(1);
    expect(second.of('case_deleted', doomed)).toHaveLength(1);
    // Nothing from before the resume point comes again.
    expect(second.of('case_created', watched)).toEqual([]);
    expect(second.of('case_created', doomed)).toEqual([]);
  });

  it('takes the position as the lastEventId query parameter too, and replays to a doctor only their own', async () => {
    const start = await open(drLee);
    await start.until(() => start.lastEventId !== '', 'the first id');
    const resumeFrom = start.lastEventId;
    start.close();

    const own = (await createCase(drLee, { patientName: 'Query Own' })).id;
    const other = (await createCase(drPatel, { patientName: 'Query Other' })).id;
    const staff = (await createCase(rep, { patientName: 'Query Staff' })).id;

    const resumed = await open(drLee, { lastEventIdQuery: resumeFrom });
    await resumed.waitForEvent('case_created', own);
    await sentinel(resumed, drLee);
    expect(resumed.messages.filter((m) => [other, staff].includes(m.data?.id ?? m.data?.caseId))).toEqual([]);
    expect(resumed.of('manager_alert')).toEqual([]);
  });

  it('hands over from replay to live without a gap or a duplicate while commands keep coming', async () => {
    await handOverWhileWriting(lab, admin, rep, open);
  });

  it('sends a full refresh for a Last-Event-ID it does not know', async () => {
    const [staffStream, leeStream] = await Promise.all([
      open(admin, { lastEventId: '999999999' }),
      open(drLee, { lastEventId: 'not-a-position' }),
    ]);
    const staffList = await staffStream.waitForEvent('cases_refresh');
    expect(staffList.data).toEqual((await admin.get('/cases')).body);
    expect((await staffStream.waitForEvent('users_refresh')).data).toEqual((await admin.get('/users')).body);
    const leeList = await leeStream.waitForEvent('cases_refresh');
    expect(leeList.data).toEqual((await drLee.get('/cases')).body);
    expect(
      leeList.data.every(
        (item: { assignedDoctorUsername: string }) => item.assignedDoctorUsername === 'dr.lee',
      ),
    ).toBe(true);
    expect(
      (await leeStream.waitForEvent('users_refresh')).data.map((u: { username: string }) => u.username),
    ).toEqual(['dr.lee']);
  });

  it('after a restore marker sends one cases_refresh and users_refresh instead of every imported case', async () => {
    const [staffStream, leeStream] = await Promise.all([open(admin), open(drLee)]);
    await Promise.all([staffStream, leeStream].map((s) => s.until(() => s.lastEventId !== '', 'an id')));
    const template = (await admin.get('/cases/CA-2024-001')).body;
    const imported = ['CA-1999-101', 'CA-1999-102', 'CA-1999-103'].map((id, n) => {
      const { version: _, ...rest } = template;
      return {
        ...rest,
        id,
        patientName: `Restored ${n}`,
        assignedDoctorUsername: n === 0 ? 'dr.lee' : 'dr.patel',
      };
    });
    // What a restore appends, in one transaction: the marker, then the import events.
    const app = lab.app;
    await withTransaction(app.get(DataSource), async (runner) => {
      await app
        .get(EventStore)
        .append(
          `restore-${Date.now()}`,
          0,
          [{ type: 'BackupRestored', data: { cases: imported.length } }],
          { actor: { username: 'admin', role: 'Manager' }, correlationId: 'live-restore-test' },
          runner,
        );
      await app
        .get(CaseImportService)
        .importCases(imported, { username: 'admin', role: 'Manager' }, 'live-restore-test', runner);
    });

    const refresh = await staffStream.waitForEvent('cases_refresh');
    expect(refresh.data).toEqual((await admin.get('/cases')).body);
    expect(refresh.data.map((c: { id: string }) => c.id)).toEqual(
      expect.arrayContaining(imported.map((c) => c.id)),
    );
    const users = await staffStream.waitForEvent('users_refresh');
    const { rows } = await db.query(
      `SELECT global_position::text AS position, type FROM events
        WHERE transaction_id = (SELECT transaction_id FROM events WHERE type = 'BackupRestored' ORDER BY global_position DESC LIMIT 1)
        ORDER BY global_position`,
    );
    expect(rows.map((row: { type: string }) => row.type)).toEqual([
      'BackupRestored',
      'CaseImported',
      'CaseImported',
      'CaseImported',
    ]);
    expect(refresh.id).toBe(rows[0].position);
    expect(users.id).toBe(rows.at(-1).position);

    const leeRefresh = await leeStream.waitForEvent('cases_refresh');
    expect(leeRefresh.data).toEqual((await drLee.get('/cases')).body);
    expect(leeRefresh.data.map((c: { id: string }) => c.id)).toContain('CA-1999-101');
    expect(leeRefresh.data.map((c: { id: string }) => c.id)).not.toContain('CA-1999-102');

    await sentinel(staffStream);
    for (const { id } of imported) expect(staffStream.of('case_created', id)).toEqual([]);
  });

  it('sends a heartbeat comment at the configured interval', async () => {
    const stream = await open(rep);
    await stream.until(
      () => stream.comments.filter((comment) => comment.text === 'heartbeat').length >= 3,
      'three heartbeats',
    );
    const beats = stream.comments.filter((comment) => comment.text === 'heartbeat').map((c) => c.receivedAt);
    console.log(
      `heartbeat gaps (configured ${HEARTBEAT_MS} ms): ${beats
        .slice(1)
        .map((t, i) => t - beats[i])
        .join(', ')} ms`,
    );
  });

  it("moves a quiet client's Last-Event-ID forward with the heartbeat", async () => {
    const stream = await open(drPatel);
    await stream.until(() => stream.lastEventId !== '', 'the first id');
    // Nothing for Dr. Patel in this one, yet a reconnect should not replay it.
    const other = (await createCase(rep, { patientName: 'Not for Dr. Patel' })).id;
    const [created] = await positions(other);
    await stream.until(() => stream.lastEventId === created.position, `the id to reach ${created.position}`);
    expect(stream.messages.filter((m) => m.data?.id === other || m.data?.caseId === other)).toEqual([]);
  });

  it('ends the stream when its session ends', async () => {
    const session = await lab.login('designer');
    const stream = await open(session);
    await stream.until(() => stream.lastEventId !== '', 'an id');
    expect((await session.post('/auth/logout')).status).toBe(204);
    await stream.ended;
    expect(stream.endedBy).toBe('server');
    expect((await session.get('/events')).status).toBe(401);
  });

  it('forgets a client on disconnect', async () => {
    const live = lab.app.get(LiveStreamService);
    const before = live.clientCount;
    const stream = await open(rep);
    await stream.until(() => stream.lastEventId !== '', 'an id');
    expect(live.clientCount).toBe(before + 1);
    stream.close();
    await eventually(() => live.clientCount === before, 'the server to forget the client');
  });
});

describe('live stream limits and shutdown', () => {
  it('hands over without a gap or a duplicate when the replay is long (tiny batches)', async () => {
    process.env.LIVE_BATCH_SIZE = '2';
    let lab: TestApp | undefined;
    try {
      lab = await startTestApp();
    } finally {
      delete process.env.LIVE_BATCH_SIZE;
    }
    const opened: SseStream[] = [];
    try {
      const [admin, rep] = await Promise.all([lab.login('admin'), lab.login('rep')]);
      const open = async (client: ApiClient, options: { lastEventId?: string } = {}) => {
        const stream = await SseStream.open(`${lab!.apiUrl}/events`, { token: client.token, ...options });
        opened.push(stream);
        return stream;
      };
      await handOverWhileWriting(lab, admin, rep, open, true);
    } finally {
      for (const stream of opened) stream.close();
      await lab.close();
    }
  });

  it('drops a client that does not read, once its unread output passes the cap', async () => {
    process.env.LIVE_MAX_QUEUE_BYTES = String(64 * 1024);
    let lab: TestApp | undefined;
    try {
      lab = await startTestApp();
    } finally {
      delete process.env.LIVE_MAX_QUEUE_BYTES;
    }
    try {
      const admin = await lab.login('admin');
      const live = lab.app.get(LiveStreamService);
      // A raw request whose response is never read: the socket buffers fill, then the server's.
      const url = new URL(`${lab.apiUrl}/events`);
      let received = 0;
      let closed = false;
      const request = http.get(url, { headers: { authorization: `Bearer ${admin.token}` } });
      const response = await new Promise<http.IncomingMessage>((resolve) => request.on('response', resolve));
      expect(response.statusCode).toBe(200);
      response.on('data', (chunk: Buffer) => (received += chunk.length));
      response.pause();
      response.on('close', () => (closed = true));
      response.on('error', () => (closed = true));
      request.on('error', () => (closed = true));
      expect(live.clientCount).toBe(1);

      // Every edit re-sends the case's summary, here with 10,000 characters of treatment plan
      // notes: keep editing until the kernel's socket buffers (several MB on loopback) and then
      // the cap are full.
      const id = (await createCase(admin, { patientName: 'Slow Reader' })).id;
      for (let n = 0; n < 2000 && live.clientCount > 0; n++) {
        const treatmentPlanNotes = (n % 2 ? 'x' : 'y').repeat(10_000);
        expect((await admin.put(`/cases/${id}`, { treatmentPlanNotes })).status).toBe(200);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await eventually(() => live.clientCount === 0, 'the slow client to be dropped');

      response.resume();
      await eventually(() => closed, 'the connection to close');
      console.log(`slow client dropped after it had read ${received} bytes`);
    } finally {
      await lab.close();
    }
  });

  it('closes every open stream on shutdown with a retry hint, so app.close() returns', async () => {
    const lab = await startTestApp();
    let closedApp = false;
    try {
      const streams = await Promise.all(
        ['admin', 'dr.lee'].map(async (name) =>
          SseStream.open(`${lab.apiUrl}/events`, { token: (await lab.login(name)).token }),
        ),
      );
      await Promise.all(streams.map((s) => s.until(() => s.lastEventId !== '', 'an id')));
      await lab.close();
      closedApp = true;
      for (const stream of streams) {
        await stream.ended;
        expect(stream.endedBy).toBe('server');
        expect(stream.retries.length).toBe(2);
        expect(stream.retries[1]).toBeGreaterThanOrEqual(2000);
      }
    } finally {
      if (!closedApp) await lab.close();
    }
  });
});
