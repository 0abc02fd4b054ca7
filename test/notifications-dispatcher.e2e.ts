import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
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

  function dispatcher(queue: NotificationQueue = new InProcessDriver({ attempts: 5, backoffMs: 100 })) {
    queues.push(queue);
    const created = new NotificationDispatcher(
      lab.app.get(DataSource),
      lab.app.get(EventStore),
      lab.app.get(NotificationPlanner),
      lab.app.get(NotificationStore),
      queue,
    );
    dispatchers.push(created);
    return created;
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
});
