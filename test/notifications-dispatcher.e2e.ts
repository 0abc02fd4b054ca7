import { CASE_ERASURE } from '@alignerflow/domain';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { NOTIFICATIONS_CONFIG } from '../backend/src/config/notifications.config';
import { EventStore } from '../backend/src/event-store/event-store';
import { NotificationDispatcher } from '../backend/src/notifications/notification-dispatcher';
import { NotificationPlanner } from '../backend/src/notifications/notification-planner';
import { NotificationStore } from '../backend/src/notifications/notification-store';
import { BullMqDriver } from '../backend/src/notifications/queue/bullmq.driver';
import { InProcessDriver } from '../backend/src/notifications/queue/in-process.driver';
import type {
  NotificationJob,
  NotificationQueue,
} from '../backend/src/notifications/queue/notification-queue';
import { eventually, withEnv } from './support/helpers';
import type { ApiClient } from './support/http';
import { PushService } from './support/push-service';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The dispatcher on its own: the app's dispatcher is stopped, and the tests drive dispatchers of
 * their own on the same database, step by step.
 */
describe('notification dispatcher', () => {
  let lab: TestApp;
  let push: PushService;
  let dataDir: string;
  let admin: ApiClient, designer: ApiClient, drPatel: ApiClient;
  const dispatchers: NotificationDispatcher[] = [];
  const queues: NotificationQueue[] = [];

  function dispatcher(
    queue: NotificationQueue = new InProcessDriver({ attempts: 5, backoffMs: 100 }),
    planner = lab.app.get(NotificationPlanner),
  ) {
    queues.push(queue);
    const created = new NotificationDispatcher(
      lab.app.get(DataSource),
      lab.app.get(EventStore),
      planner,
      lab.app.get(NotificationStore),
      queue,
    );
    dispatchers.push(created);
    return created;
  }

  /**
   * A planner of its own, as a freshly started worker has one (it holds nothing yet), whose reads
   * are recorded: the case_view rows asked for, the streams read, the reads of user_view.
   */
  function recordingPlanner() {
    const dataSource = lab.app.get(DataSource);
    const store = lab.app.get(EventStore);
    const reads = {
      caseView: [] as string[][],
      streams: [] as { streamId: string; version: number }[][],
      userView: 0,
      /** The reads that concern the case `id`. */
      of(id: string) {
        return {
          caseView: this.caseView.filter((ids) => ids.includes(id)).length,
          streams: this.streams.filter((streams) => streams.some((s) => s.streamId === `case-${id}`)).length,
        };
      },
      clear() {
        this.caseView = [];
        this.streams = [];
        this.userView = 0;
      },
    };
    const recordingDataSource = Object.assign(Object.create(dataSource) as DataSource, {
      query: (text: string, params?: unknown[]) => {
        if (/\bcase_view\b/.test(text)) reads.caseView.push(params![0] as string[]);
        if (/\buser_view\b/.test(text)) reads.userView++;
        return dataSource.query(text, params);
      },
    });
    const recordingStore = Object.assign(Object.create(store) as EventStore, {
      readStream: (streamId: string) => {
        reads.streams.push([{ streamId, version: 0 }]);
        return store.readStream(streamId);
      },
      readStreamsAfter: (streams: { streamId: string; version: number }[]) => {
        reads.streams.push(streams);
        return store.readStreamsAfter(streams);
      },
    });
    const planner = new NotificationPlanner(
      recordingDataSource,
      recordingStore,
      lab.app.get(NotificationStore),
      lab.app.get(NOTIFICATIONS_CONFIG),
    );
    return { planner, reads };
  }

  /** The jobs recorded as queued whose ids are not in `seen`. */
  async function newJobs(seen: Set<string>): Promise<NotificationJob[]> {
    return (await queuedJobs()).filter((job) => !seen.has(job.id));
  }

  /** Each job as "user: title — body", sorted. */
  function told(jobs: NotificationJob[]): string[] {
    return jobs.map((job) => `${job.username}: ${job.message.title} — ${job.message.body}`).sort();
  }

  async function jobIds(): Promise<Set<string>> {
    return new Set((await queuedJobs()).map((job) => job.id));
  }

  async function positionOf(caseId: string, type: string): Promise<string> {
    const rows = await sql(
      `SELECT global_position::text AS position FROM events WHERE stream_id = $1 AND type = $2`,
      [`case-${caseId}`, type],
    );
    expect(rows).toHaveLength(1);
    return rows[0].position;
  }

  async function newCase(patientName: string, by: ApiClient = admin): Promise<string> {
    const created = await by.post('/cases', { patientName, doctorName: 'Dr. Patel', clinicName: 'C' });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function sql<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    return lab.app.get(DataSource).query(text, params);
  }

  async function checkpoint(): Promise<string | undefined> {
    const rows = await sql(
      `SELECT global_position::text AS p FROM projection_checkpoints WHERE name = 'notifications'`,
    );
    return rows[0]?.p;
  }

  async function queuedJobs(): Promise<NotificationJob[]> {
    return (await sql(`SELECT job FROM notification_deliveries ORDER BY id`)).map((row) => row.job);
  }

  async function drain(d: NotificationDispatcher): Promise<void> {
    for (;;) {
      const moved = await d.dispatchOnce();
      if (moved === null) throw new Error('this dispatcher does not lead');
      if (moved === 0) return;
    }
  }

  async function lastPosition(): Promise<string> {
    return (await sql(`SELECT max(global_position)::text AS p FROM events`))[0].p;
  }

  /**
   * Readers see an event only once every older transaction on the server has ended (the event
   * store's commit-safe order); other test runs sharing this PostgreSQL may hold one open a while.
   */
  async function untilReadable(position: string): Promise<void> {
    const store = lab.app.get(EventStore);
    const deadline = Date.now() + 60_000;
    while (!(await store.readAll(null, 100_000)).some((event) => event.position === position)) {
      if (Date.now() > deadline) throw new Error(`event ${position} never became readable`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Dispatches until the checkpoint reaches the last event written so far. */
  async function dispatchAll(d: NotificationDispatcher): Promise<void> {
    const last = await lastPosition();
    await untilReadable(last);
    await drain(d);
    expect(await checkpoint()).toBe(last);
  }

  beforeAll(async () => {
    push = await PushService.start();
    dataDir = mkdtempSync(join(tmpdir(), 'af-dispatch-'));
    lab = await withEnv({ PUSH_ALLOWED_HOSTS: push.host }, () => startTestApp({ DATA_DIR: dataDir }));
    await lab.app.get(NotificationDispatcher).stop();
    // The demo data is made by real commands: its events are dispatched before anyone has a
    // device, so the tests below start from a checkpoint at the end of the seed.
    const seed = dispatcher();
    await dispatchAll(seed);
    await seed.stop();
    [admin, designer, drPatel] = await Promise.all(
      ['admin', 'designer', 'dr.patel'].map((n) => lab.login(n)),
    );
    for (const client of [admin, designer, drPatel])
      expect((await client.post('/push/subscribe', push.subscribe())).status).toBe(201);
  });

  // A test that fails half-way must not leave its dispatcher holding the lock for the next one.
  afterEach(async () => {
    for (const d of dispatchers) await d.stop();
  });

  afterAll(async () => {
    for (const d of dispatchers) await d.stop();
    for (const queue of queues) await queue.close();
    await lab.close();
    await push.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets one dispatcher at a time advance; another takes over when it stops', async () => {
    const [first, second] = [dispatcher(), dispatcher()];
    try {
      await admin.post('/cases', { patientName: 'Lise Meitner', doctorName: 'Dr. Patel', clinicName: 'C' });
      await untilReadable(await lastPosition());
      expect(await first.dispatchOnce()).toBeGreaterThan(0);
      expect(first.isLeader).toBe(true);
      expect(await second.dispatchOnce()).toBeNull();
      expect(second.isLeader).toBe(false);
      await dispatchAll(first);
      await first.stop();
      expect(await second.dispatchOnce()).toBe(0);
      expect(second.isLeader).toBe(true);
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('keeps its checkpoint while the queue is down, then queues the same job ids', async () => {
    const before = await checkpoint();
    const [savedCheckpoint] = await sql(
      `SELECT transaction_id::text AS xid, global_position::text AS p FROM projection_checkpoints WHERE name = 'notifications'`,
    );
    const earlier = await queuedJobs();
    const isNew = (job: NotificationJob) => !earlier.some((known) => known.id === job.id);
    const created = await drPatel.post('/cases', {
      patientName: 'Marie Curie',
      doctorName: 'Dr. Patel',
      clinicName: 'C',
    });
    await untilReadable(await lastPosition());
    const down = dispatcher(
      new BullMqDriver({
        redisUrl: 'redis://127.0.0.1:6399', // nothing listens there: Redis is down
        prefix: 'af-test-down',
        policy: { attempts: 5, backoffMs: 100 },
        lockMs: 5000,
        onError: () => undefined,
      }),
    );
    await expect(down.dispatchOnce()).rejects.toThrow();
    expect(await checkpoint()).toBe(before);
    expect(await queuedJobs()).toEqual(earlier);
    await down.stop();

    const queue = new InProcessDriver({ attempts: 5, backoffMs: 100 });
    const up = dispatcher(queue);
    await dispatchAll(up);
    const [{ position }] = await sql(
      `SELECT global_position::text AS position FROM events WHERE stream_id = $1`,
      [`case-${created.body.id}`],
    );
    expect(await checkpoint()).toBe(position);
    const jobs = (await queuedJobs()).filter(isNew);
    expect(jobs).toEqual([
      {
        id: `ev${position}-webpush-admin`,
        channel: 'webpush',
        username: 'admin',
        eventPosition: position,
        message: {
          title: 'New case submitted',
          body: `${created.body.id} for Marie Curie is waiting for approval.`,
          caseId: created.body.id,
          url: `/?case=${created.body.id}`,
          icon: '/icons/icon-192.png',
        },
      },
    ]);
    expect(queue.stateOf(jobs[0].id)).toBe('waiting');

    // A replay from an older checkpoint queues nothing new: same ids, known to queue and table.
    // The leader keeps its checkpoint in memory while it holds the lock: the next leader reads it.
    await up.stop();
    await sql(
      `UPDATE projection_checkpoints SET transaction_id = $1::xid8, global_position = $2 WHERE name = 'notifications'`,
      [savedCheckpoint.xid, savedCheckpoint.p],
    );
    const again = dispatcher(queue);
    await drain(again);
    expect(await checkpoint()).toBe(position);
    expect((await queuedJobs()).filter(isNew)).toEqual(jobs);
    await again.stop();
  });

  it('a leader whose connection dies mid-batch loses and duplicates nothing: the next one finishes it', async () => {
    const first = dispatcher();
    await dispatchAll(first);
    const earlier = new Set((await queuedJobs()).map((job) => job.id));
    // Job-less events (notes nobody is told of) around events with jobs (new cases).
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { id } = (
        await drPatel.post('/cases', { patientName: `Ada ${i}`, doctorName: 'Dr. Patel', clinicName: 'C' })
      ).body;
      ids.push(id);
      for (let n = 0; n < 3; n++) await admin.post(`/cases/${id}/notes`, { text: `Note ${n}.` });
    }
    await untilReadable(await lastPosition());

    // The queue both leaders share; its first enqueue kills the leader's session before the
    // batch's checkpoint and 'queued' rows are committed.
    const inner = new InProcessDriver({ attempts: 5, backoffMs: 100 });
    const enqueued: string[] = [];
    let killed = false;
    const shared: NotificationQueue = Object.assign(Object.create(inner) as NotificationQueue, {
      enqueue: async (jobs: NotificationJob[]) => {
        enqueued.push(...jobs.map((job) => job.id));
        await inner.enqueue(jobs);
        if (!killed) {
          killed = true;
          await sql('SELECT pg_terminate_backend($1)', [dying.leaderPid]);
        }
      },
    });
    const dying = dispatcher(shared);
    await dying.start();
    await first.stop();
    await eventually(() => killed, 10_000, 'the leader to die mid-batch');
    await dying.stop();

    const next = dispatcher(shared);
    await dispatchAll(next);
    await next.stop();
    const jobs = (await queuedJobs()).filter((job) => !earlier.has(job.id));
    // One 'New case submitted' to the admin per case, each recorded once, though queued twice.
    expect(jobs.map((job) => job.message.caseId).sort()).toEqual([...ids].sort());
    expect(new Set(jobs.map((job) => job.id)).size).toBe(jobs.length);
    expect(enqueued.length).toBeGreaterThan(jobs.length);
    for (const job of jobs) expect(inner.stateOf(job.id)).toBe('waiting');
  });

  it('tells of each event with the case as it was then, folding the stream when the case moved on', async () => {
    const d = dispatcher();
    await dispatchAll(d);
    const seen = new Set((await queuedJobs()).map((job) => job.id));
    const { id } = (
      await admin.post('/cases', {
        patientName: 'Rosalind Franklin',
        doctorName: 'Dr. Patel',
        clinicName: 'C',
      })
    ).body;
    await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.patel' });
    await designer.post(`/cases/${id}/advance`);
    await drPatel.post(`/cases/${id}/request-changes`, { comment: 'Less movement on 11.' });
    await designer.post(`/cases/${id}/advance`);
    await admin.post(`/cases/${id}/hold`);
    // Renamed after all of it: the earlier events must still speak of the name they happened with.
    expect((await admin.put(`/cases/${id}`, { patientName: 'R. Franklin' })).status).toBe(200);

    await dispatchAll(d);
    const jobs = (await queuedJobs()).filter((job) => !seen.has(job.id));
    const summary = jobs.map((job) => `${job.username}: ${job.message.title} — ${job.message.body}`).sort();
    expect(summary).toEqual(
      [
        `admin: Case on hold — ${id} for Rosalind Franklin was put on hold by admin.`,
        `admin: Changes requested — dr.patel requested changes to ${id}: Less movement on 11.`,
        `admin: New case submitted — ${id} for Rosalind Franklin is waiting for approval.`,
        `designer: Changes requested — dr.patel requested changes to ${id}: Less movement on 11.`,
        `dr.patel: Treatment plan ready — The treatment plan of Rosalind Franklin (${id}) is waiting for your approval.`,
        `dr.patel: Treatment plan ready — The treatment plan of Rosalind Franklin (${id}) is waiting for your approval.`,
      ].sort(),
    );
    // Two plans ready: two events, two notifications.
    expect(new Set(jobs.map((job) => job.id)).size).toBe(jobs.length);
    await d.stop();
  });
  it('plans a StageAdvanced from the case it holds in memory: no read of case_view, the stream or the users', async () => {
    const { planner, reads } = recordingPlanner();
    const d = dispatcher(undefined, planner);
    await dispatchAll(d);
    const seen = await jobIds();
    // Each step its own batch: what the planner knows of the case comes from the batches before.
    const id = await newCase('Emmy Noether');
    await dispatchAll(d);
    expect((await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.patel' })).status).toBe(200);
    await dispatchAll(d);
    // A stream's first event needs no state before it: the case was never read, from its start.
    expect(reads.of(id)).toEqual({ caseView: 0, streams: 0 });
    expect(reads.userView).toBe(1); // the first batch that had someone to tell
    reads.clear();

    expect((await designer.post(`/cases/${id}/advance`)).body.status).toBe('Doctor Approval');
    await dispatchAll(d);
    expect(reads.of(id)).toEqual({ caseView: 0, streams: 0 });
    expect(reads.userView).toBe(0);
    const advanced = await positionOf(id, 'StageAdvanced');
    const jobs = await newJobs(seen);
    expect(told(jobs)).toEqual([
      `admin: New case submitted — ${id} for Emmy Noether is waiting for approval.`,
      `dr.patel: Treatment plan ready — The treatment plan of Emmy Noether (${id}) is waiting for your approval.`,
    ]);
    expect(jobs.find((job) => job.username === 'dr.patel')).toEqual({
      id: `ev${advanced}-webpush-dr.patel`,
      channel: 'webpush',
      username: 'dr.patel',
      eventPosition: advanced,
      message: {
        title: 'Treatment plan ready',
        body: `The treatment plan of Emmy Noether (${id}) is waiting for your approval.`,
        caseId: id,
        url: `/?case=${id}`,
        icon: '/icons/icon-192.png',
      },
    });
    await d.stop();
  });

  it('a planner that holds nothing (a restarted worker) reads case_view, or the stream when the case moved on, then holds the case', async () => {
    const before = recordingPlanner();
    const first = dispatcher(undefined, before.planner);
    await dispatchAll(first);
    const seen = await jobIds();
    const [still, moved] = [await newCase('Chien-Shiung Wu'), await newCase('Dorothy Hodgkin')];
    for (const id of [still, moved])
      expect((await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.patel' })).status).toBe(200);
    await dispatchAll(first);
    await first.stop();

    // Meanwhile both reach Doctor Approval; one is renamed after it, so its view moved past the event.
    for (const id of [still, moved]) expect((await designer.post(`/cases/${id}/advance`)).status).toBe(200);
    expect((await admin.put(`/cases/${moved}`, { patientName: 'D. C. Hodgkin' })).status).toBe(200);
    const after = recordingPlanner();
    const second = dispatcher(undefined, after.planner);
    await dispatchAll(second);
    expect(after.reads.of(still)).toEqual({ caseView: 1, streams: 0 });
    expect(after.reads.of(moved)).toEqual({ caseView: 1, streams: 1 });
    // Nothing held: the whole stream.
    expect(after.reads.streams.flat().filter((s) => s.streamId === `case-${moved}`)).toEqual([
      { streamId: `case-${moved}`, version: 0 },
    ]);
    expect(told((await newJobs(seen)).filter((job) => job.message.title === 'Treatment plan ready'))).toEqual(
      [
        `dr.patel: Treatment plan ready — The treatment plan of Chien-Shiung Wu (${still}) is waiting for your approval.`,
        `dr.patel: Treatment plan ready — The treatment plan of Dorothy Hodgkin (${moved}) is waiting for your approval.`,
      ].sort(),
    );

    // Now held, both go on from memory, the renamed one by its new name.
    after.reads.clear();
    const told1 = await jobIds();
    for (const id of [still, moved]) expect((await admin.post(`/cases/${id}/hold`)).status).toBe(200);
    await dispatchAll(second);
    expect([after.reads.of(still), after.reads.of(moved)]).toEqual([
      { caseView: 0, streams: 0 },
      { caseView: 0, streams: 0 },
    ]);
    expect(told(await newJobs(told1))).toEqual(
      [
        `admin: Case on hold — ${still} for Chien-Shiung Wu was put on hold by admin.`,
        `admin: Case on hold — ${moved} for D. C. Hodgkin was put on hold by admin.`,
      ].sort(),
    );
    await second.stop();
  });

  it('folds the stream only from the version it holds when that is behind the event', async () => {
    const { planner, reads } = recordingPlanner();
    const id = await newCase('Lise Meitner-Frisch');
    expect((await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.patel' })).status).toBe(200);
    expect((await designer.post(`/cases/${id}/advance`)).status).toBe(200);
    expect((await admin.put(`/cases/${id}`, { patientName: 'L. Meitner' })).status).toBe(200);
    const stream = await lab.app.get(EventStore).readStream(`case-${id}`);
    expect(stream.map((event) => event.type)).toEqual([
      'CaseCreated',
      'CaseApproved',
      'StageAdvanced',
      'CaseDetailsEdited',
    ]);
    // Handed the first event only, then the third (as a planner shown a gap would be).
    expect(told(await planner.plan(stream.slice(0, 1)))).toEqual([
      `admin: New case submitted — ${id} for Lise Meitner-Frisch is waiting for approval.`,
    ]);
    expect(reads.of(id)).toEqual({ caseView: 0, streams: 0 });
    expect(told(await planner.plan(stream.slice(2, 3)))).toEqual([
      `dr.patel: Treatment plan ready — The treatment plan of Lise Meitner-Frisch (${id}) is waiting for your approval.`,
    ]);
    expect(reads.streams).toEqual([[{ streamId: `case-${id}`, version: 1 }]]);
    // And holds it at the event: the next one follows from memory.
    reads.clear();
    expect(told(await planner.plan(stream.slice(3)))).toEqual([]);
    expect(reads.of(id)).toEqual({ caseView: 0, streams: 0 });
  });

  it('names no patient from memory once the case was erased before the dispatcher reached its alert', async () => {
    const { planner, reads } = recordingPlanner();
    const d = dispatcher(undefined, planner);
    await dispatchAll(d);
    const seen = await jobIds();
    const id = await newCase('Grace Hopper');
    await dispatchAll(d); // the planner now holds the case
    reads.clear();
    // The rejection alerts its creator; the case is erased before the dispatcher reads either.
    expect((await admin.post(`/cases/${id}/reject`, { reason: 'Scan unusable' })).status).toBe(200);
    expect((await admin.post(`/cases/${id}/erase`, { reason: 'The patient asked.' })).status).toBe(200);
    await dispatchAll(d);
    const rejected = (await newJobs(seen)).filter(
      (job) => job.message.caseId === id && job.message.title === 'Case rejected',
    );
    expect(rejected.length).toBeGreaterThan(0);
    for (const job of rejected) {
      expect(job.message.body).not.toContain('Grace Hopper');
      expect(job.message.body).toContain(CASE_ERASURE.erasedName);
    }
    // Memory gave way to the read that knows of the erasure.
    expect(reads.of(id).caseView + reads.of(id).streams).toBeGreaterThan(0);
    await d.stop();
  });

  it('reads the users again after a user was created or changed between two batches', async () => {
    const { planner, reads } = recordingPlanner();
    const d = dispatcher(undefined, planner);
    await dispatchAll(d);
    const seen = await jobIds();
    const firstCase = await newCase('Grace Hopper', drPatel);
    await dispatchAll(d);
    expect(told(await newJobs(seen))).toEqual([
      `admin: New case submitted — ${firstCase} for Grace Hopper is waiting for approval.`,
    ]);
    expect(reads.userView).toBe(1);

    // A new manager with a device, and the admin turning push off: user events only, a batch of
    // their own with no one to tell.
    const created = await admin.post('/users', {
      username: 'manager.memory',
      password: 'Ledger-Quartz-1',
      role: 'Manager',
    });
    expect(created.status).toBe(201);
    const newcomer = await lab.login('manager.memory', 'Ledger-Quartz-1');
    expect((await newcomer.post('/push/subscribe', push.subscribe())).status).toBe(201);
    expect((await admin.put('/users/admin', { notify: { push: false } })).status).toBe(200);
    try {
      await dispatchAll(d);
      expect(reads.userView).toBe(1);

      const seen2 = await jobIds();
      const secondCase = await newCase('Margaret Hamilton', drPatel);
      await dispatchAll(d);
      expect(told(await newJobs(seen2))).toEqual([
        `manager.memory: New case submitted — ${secondCase} for Margaret Hamilton is waiting for approval.`,
      ]);
      expect(reads.userView).toBe(2);
    } finally {
      expect((await admin.put('/users/admin', { notify: { push: true } })).status).toBe(200);
      expect((await admin.delete('/users/manager.memory')).status).toBe(204);
      await dispatchAll(d);
      await d.stop();
    }
  });

  it('a leader whose lock connection dies between two batches forgets what it held, and tells of the next exactly once', async () => {
    const { planner, reads } = recordingPlanner();
    const resets = jest.spyOn(planner, 'reset');
    const d = dispatcher(undefined, planner);
    await dispatchAll(d);
    const seen = await jobIds();
    const id = await newCase('Katherine Johnson');
    expect((await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.patel' })).status).toBe(200);
    await dispatchAll(d);
    expect(reads.of(id)).toEqual({ caseView: 0, streams: 0 });

    const pid = d.leaderPid;
    await sql('SELECT pg_terminate_backend($1)', [pid]);
    await eventually(() => !d.isLeader, 10_000, 'the leader to lose its session');
    expect((await designer.post(`/cases/${id}/advance`)).status).toBe(200);
    resets.mockClear();
    await dispatchAll(d);
    expect(d.leaderPid).not.toBe(pid);
    expect(resets).toHaveBeenCalled();
    // What it held went with the term: the case is read again (still at the event's version).
    expect(reads.of(id)).toEqual({ caseView: 1, streams: 0 });
    const advanced = await positionOf(id, 'StageAdvanced');
    const jobs = await newJobs(seen);
    expect(told(jobs)).toEqual([
      `admin: New case submitted — ${id} for Katherine Johnson is waiting for approval.`,
      `dr.patel: Treatment plan ready — The treatment plan of Katherine Johnson (${id}) is waiting for your approval.`,
    ]);
    expect(jobs.map((job) => job.id).sort()).toEqual(
      [`ev${await positionOf(id, 'CaseCreated')}-webpush-admin`, `ev${advanced}-webpush-dr.patel`].sort(),
    );
    await d.stop();
  });

  it('a leader killed mid-batch after planning from memory: the batch is planned afresh and queued exactly once', async () => {
    const { planner } = recordingPlanner();
    const resets = jest.spyOn(planner, 'reset');
    const inner = new InProcessDriver({ attempts: 5, backoffMs: 100 });
    const enqueued: string[] = [];
    let armed = false;
    let killed = false;
    const shared: NotificationQueue = Object.assign(Object.create(inner) as NotificationQueue, {
      enqueue: async (jobs: NotificationJob[]) => {
        enqueued.push(...jobs.map((job) => job.id));
        await inner.enqueue(jobs);
        if (armed && !killed) {
          killed = true;
          await sql('SELECT pg_terminate_backend($1)', [d.leaderPid]);
        }
      },
    });
    const d = dispatcher(shared, planner);
    await dispatchAll(d);
    const seen = await jobIds();
    const id = await newCase('Mary Jackson');
    expect((await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.patel' })).status).toBe(200);
    await dispatchAll(d);
    expect((await designer.post(`/cases/${id}/advance`)).status).toBe(200);
    const last = await lastPosition();
    await untilReadable(last);

    // The loop plans the advance from memory, queues it, and dies before its checkpoint commits.
    armed = true;
    resets.mockClear();
    d.start();
    await eventually(async () => killed && (await checkpoint()) === last, 30_000, 'the batch done again');
    await d.stop();
    expect(resets).toHaveBeenCalled();
    const advanced = await positionOf(id, 'StageAdvanced');
    const jobs = await newJobs(seen);
    expect(told(jobs)).toEqual([
      `admin: New case submitted — ${id} for Mary Jackson is waiting for approval.`,
      `dr.patel: Treatment plan ready — The treatment plan of Mary Jackson (${id}) is waiting for your approval.`,
    ]);
    // Queued twice (before and after the kill), recorded once, waiting once.
    expect(enqueued.filter((job) => job === `ev${advanced}-webpush-dr.patel`)).toHaveLength(2);
    expect(new Set(jobs.map((job) => job.id)).size).toBe(jobs.length);
    expect(inner.stateOf(`ev${advanced}-webpush-dr.patel`)).toBe('waiting');
  });
  it('a batch that could not be queued is planned again from a fresh memory', async () => {
    const { planner, reads } = recordingPlanner();
    const resets = jest.spyOn(planner, 'reset');
    const inner = new InProcessDriver({ attempts: 5, backoffMs: 100 });
    let refuse = false;
    const flaky: NotificationQueue = Object.assign(Object.create(inner) as NotificationQueue, {
      enqueue: async (jobs: NotificationJob[]) => {
        if (refuse) throw new Error('queue unavailable');
        await inner.enqueue(jobs);
      },
    });
    const d = dispatcher(flaky, planner);
    await dispatchAll(d);
    const seen = await jobIds();
    const id = await newCase('Hedy Lamarr');
    expect((await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.patel' })).status).toBe(200);
    await dispatchAll(d);
    expect((await designer.post(`/cases/${id}/advance`)).status).toBe(200);
    await untilReadable(await lastPosition());

    refuse = true;
    await expect(d.dispatchOnce()).rejects.toThrow('queue unavailable');
    refuse = false;
    reads.clear();
    resets.mockClear();
    // Same lock, same term: the batch comes again from the same checkpoint, after memory moved on.
    await dispatchAll(d);
    expect(resets).toHaveBeenCalledTimes(1);
    expect(reads.of(id)).toEqual({ caseView: 1, streams: 0 });
    expect(told(await newJobs(seen))).toEqual([
      `admin: New case submitted — ${id} for Hedy Lamarr is waiting for approval.`,
      `dr.patel: Treatment plan ready — The treatment plan of Hedy Lamarr (${id}) is waiting for your approval.`,
    ]);
  });
});
