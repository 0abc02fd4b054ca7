import { randomBytes } from 'node:crypto';
import { CASE_ERASURE, nextStatus, type Case, type CaseStatus } from '@alignerflow/domain';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { createEventStore } from '../backend/src/event-store/event-store.module';
import { CaseKeys } from '../backend/src/event-store/encryption/case-keys';
import {
  NOTIFICATION_QUEUE,
  type NotificationQueue,
} from '../backend/src/notifications/queue/notification-queue';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import { caseAt, createCase } from './support/case-road';
import { download, PNG, upload } from './support/files';
import { clearQueuePrefix, eventually, sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The right to erasure (api.md "Patient data"): one CaseErased event destroys the case's key,
 * its files and every copy of its texts in the read models; the history, a replay and a restore
 * all show the erased case, and the seals still verify.
 */
const PATIENT = 'Ottoline Verbrugghen-Szabo';
const NOTE = 'Prefers morning appointments, anxious about attachments';
const PLAN_NOTE = 'Expansion of the upper arch by 2 mm';
const COMMENT = 'Please reduce the torque on 13 before we start';
const REASON = 'Patient asked for erasure by letter';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUEUE_PREFIX = `af-erasure-${randomBytes(4).toString('hex')}`;
const LATER_NOTE = 'Retainer posted to the clinic';

jest.setTimeout(120_000);

describe('erasure of a case', () => {
  let lab: TestApp;
  let admin: ApiClient, designer: ApiClient, drLee: ApiClient;
  let id: string;
  let photoUrl: string;
  let erased: Case;

  beforeAll(async () => {
    // Notifications through BullMQ on the real Redis, whose finished jobs keep their messages.
    lab = await startTestApp({ REDIS_URL, NOTIFICATIONS_QUEUE_PREFIX: QUEUE_PREFIX });
    [admin, designer, drLee] = await Promise.all(
      ['admin', 'designer', 'dr.lee'].map((name) => lab.login(name)),
    );
    const clients = { admin, designer, 'dr.lee': drLee };
    ({ id } = await caseAt(clients, 'Doctor Approval', {
      patientName: PATIENT,
      treatmentPlanNotes: PLAN_NOTE,
    }));
    const photo = await upload(admin, PNG, 'intraoral-front.png');
    expect(photo.status).toBe(201);
    photoUrl = photo.body.url;
    expect((await admin.post(`/cases/${id}/files`, { files: [photo.body] })).status).toBe(200);
    expect((await admin.post(`/cases/${id}/notes`, { text: NOTE })).status).toBe(201);
    expect((await drLee.post(`/cases/${id}/request-changes`, { comment: COMMENT })).status).toBe(200);
    await walkOn(id, 'Completed');
  });
  afterAll(async () => {
    await lab?.close();
    await clearQueuePrefix(REDIS_URL, QUEUE_PREFIX);
  });

  /** Whether a job the notification queue holds in Redis (its hashes) has `needle` in it. */
  async function queueHolds(needle: string): Promise<boolean> {
    const redis = new Redis(REDIS_URL);
    try {
      for (const key of await redis.keys(`${QUEUE_PREFIX}:*`)) {
        if ((await redis.type(key)) !== 'hash') continue;
        if ((await redis.hvals(key)).some((value) => value.includes(needle))) return true;
      }
      return false;
    } finally {
      redis.disconnect();
    }
  }

  /** The manager (and dr.lee at Doctor Approval) takes the case on to `status`. */
  async function walkOn(caseId: string, status: CaseStatus): Promise<void> {
    for (;;) {
      const current: CaseStatus = (await admin.get(`/cases/${caseId}`)).body.status;
      if (current === status) return;
      const answer =
        current === 'Doctor Approval'
          ? await drLee.post(`/cases/${caseId}/doctor-approve`)
          : await admin.post(`/cases/${caseId}/advance`, { fromStatus: current });
      if (answer.status !== 200)
        throw new Error(
          `${caseId} from ${current} to ${nextStatus(current)}: ${JSON.stringify(answer.body)}`,
        );
    }
  }

  /** Every table whose rows, as text, hold `needle` (the whole database, every column). */
  async function tablesHolding(needle: string): Promise<string[]> {
    const tables = await sql(
      lab.databaseUrl,
      `SELECT quote_ident(table_name) AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    const holding: string[] = [];
    for (const { name } of tables) {
      const [{ n }] = await sql(
        lab.databaseUrl,
        `SELECT count(*)::int AS n FROM ${name} t WHERE t::text ILIKE $1`,
        [`%${needle}%`],
      );
      if (n) holding.push(name);
    }
    return holding;
  }

  it('refuses a case that is not completed or rejected', async () => {
    const open = await createCase(admin, { patientName: 'Still Open' });
    expect(await admin.post(`/cases/${open.id}/erase`, { reason: REASON })).toMatchObject({
      status: 409,
      body: { error: 'Only a completed or rejected case can be erased.' },
    });
  });

  it('is for Managers, and needs a reason', async () => {
    expect((await designer.post(`/cases/${id}/erase`, { reason: REASON })).status).toBe(403);
    expect((await admin.post(`/cases/${id}/erase`, { reason: '' })).status).toBe(400);
  });

  it('holds the texts everywhere before: the test would see them', async () => {
    // A web push sent about the case, as the dispatcher records it (web push keeps the full words).
    const message = {
      title: `Note on ${PATIENT}`,
      body: NOTE,
      caseId: id,
      url: `#case=${id}`,
      icon: '/icon.png',
    };
    await sql(
      lab.databaseUrl,
      `INSERT INTO notification_deliveries (id, channel, username, status, job)
       VALUES ('erasure-test', 'webpush', 'admin', 'delivered', $1)`,
      [
        JSON.stringify({
          id: 'erasure-test',
          channel: 'webpush',
          username: 'admin',
          message,
          eventPosition: null,
        }),
      ],
    );
    // Its job, as the dispatcher queues it; it runs (admin has no device) and stays in Redis.
    const queue = lab.app.get<NotificationQueue>(NOTIFICATION_QUEUE);
    await queue.enqueue([
      { id: 'erasure-test', channel: 'webpush', username: 'admin', message, eventPosition: null },
    ]);
    await eventually(async () => {
      expect(await queueHolds(`"body":"${NOTE}"`)).toBe(true);
      expect(await queue.depth()).toBe(0);
      return true;
    });
    expect(await tablesHolding(PATIENT)).toContain('notification_deliveries');
    expect(await tablesHolding(PATIENT)).toEqual(expect.arrayContaining(['case_view', 'report_cases']));
    expect(await tablesHolding(NOTE)).toContain('case_notes');
    expect((await download(admin, photoUrl)).status).toBe(200);
    // The download's entry is written within a second of it; reading the case's log writes it now.
    expect((await admin.get(`/cases/${id}/access-log`)).status).toBe(200);
    expect(await tablesHolding('intraoral-front')).toContain('access_log');
  });

  it('answers the erased case: name, notes, comments and files gone, authors and times kept', async () => {
    const before: Case = (await admin.get(`/cases/${id}`)).body;
    const answer = await admin.post(`/cases/${id}/erase`, { reason: REASON });
    expect(answer.status).toBe(200);
    erased = answer.body;
    expect(erased).toMatchObject({
      id,
      patientName: CASE_ERASURE.erasedName,
      erasedBy: 'admin',
      erasedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      treatmentPlanNotes: '[erased]',
      files: [],
      status: 'Completed',
      doctorName: before.doctorName,
      clinicName: before.clinicName,
      alignerWorkflow: before.alignerWorkflow,
    });
    expect(erased.notes.map(({ author, timestamp }) => ({ author, timestamp }))).toEqual(
      before.notes.map(({ author, timestamp }) => ({ author, timestamp })),
    );
    expect(new Set(erased.notes.map((note) => note.text))).toEqual(new Set(['[erased]']));
    expect(erased.planVersions.map((plan) => plan.comment)).toContain('[erased]');
    expect((await admin.get(`/cases/${id}`)).body).toEqual(erased);
  });

  it('leaves no table holding the erased texts, and no key for the case', async () => {
    for (const text of [PATIENT, NOTE, PLAN_NOTE, COMMENT, 'Verbrugghen']) {
      expect({ text, tables: await tablesHolding(text) }).toEqual({ text, tables: [] });
      expect({ text, inQueue: await queueHolds(text) }).toEqual({ text, inQueue: false });
    }
    // A downloaded file's name stays in the access log, which is append-only and sealed
    // (docs/security.md, "Data lifecycle"): the one place it is left, by design.
    expect(await tablesHolding('intraoral-front')).toEqual(['access_log']);
    expect(await sql(lab.databaseUrl, 'SELECT * FROM case_keys WHERE case_id = $1', [id])).toEqual([]);
  });

  it('deletes the files: their URLs answer 404', async () => {
    expect(await download(admin, photoUrl)).toMatchObject({ status: 404 });
    const answer = await fetch(new URL(photoUrl, admin.apiUrl), {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(await answer.json()).toEqual({ error: 'File not found.' });
  });

  it('shows the erasure in the history, and no erased text', async () => {
    const history = (await admin.get(`/cases/${id}/history`)).body as { type: string; data: unknown }[];
    expect(history[history.length - 1]).toMatchObject({
      type: 'CaseErased',
      data: { reason: REASON },
      actor: { username: 'admin' },
    });
    const text = JSON.stringify(history);
    for (const erasedText of [PATIENT, NOTE, PLAN_NOTE, COMMENT, 'intraoral-front'])
      expect(text).not.toContain(erasedText);
    expect(history.find((entry) => entry.type === 'CaseCreated')?.data).toMatchObject({
      patientName: CASE_ERASURE.erasedName,
      files: [],
    });
  });

  it('a second erasure changes nothing', async () => {
    const events = await sql(lab.databaseUrl, 'SELECT count(*)::int AS n FROM events');
    const again = await admin.post(`/cases/${id}/erase`, { reason: REASON });
    expect(again).toMatchObject({ status: 200, body: erased });
    expect(await sql(lab.databaseUrl, 'SELECT count(*)::int AS n FROM events')).toEqual(events);
  });

  it('still verifies the sealed history', async () => {
    await eventually(async () => {
      const verified = (await admin.get('/audit/verify')).body;
      expect(verified).toMatchObject({ ok: true });
      return true;
    });
  });

  it('a replay gives the identical erased case', async () => {
    const before = await sql(lab.databaseUrl, 'SELECT * FROM case_view WHERE id = $1', [id]);
    const notes = await sql(lab.databaseUrl, 'SELECT * FROM case_notes WHERE case_id = $1 ORDER BY ordinal', [
      id,
    ]);
    const dataSource = await new DataSource({
      type: 'postgres',
      url: lab.databaseUrl,
      poolSize: 2,
    }).initialize();
    try {
      const store = createEventStore(dataSource, lab.app.get(CaseKeys));
      expect((await new ProjectionRebuilder(dataSource, store).run()).state).toBe('done');
    } finally {
      await dataSource.destroy();
    }
    expect(await sql(lab.databaseUrl, 'SELECT * FROM case_view WHERE id = $1', [id])).toEqual(before);
    expect(
      await sql(lab.databaseUrl, 'SELECT * FROM case_notes WHERE case_id = $1 ORDER BY ordinal', [id]),
    ).toEqual(notes);
    expect((await admin.get(`/cases/${id}`)).body).toEqual(erased);
  });

  it('an erasure while a rebuild is under way leaves no text in the rows the rebuild wrote before it', async () => {
    const patient = 'Wilhelmina Oyelaran-Kask';
    const note = 'Sensitive to cold drinks since the last refinement';
    const { id: caseId } = await caseAt({ admin, designer, 'dr.lee': drLee }, 'Doctor Approval', {
      patientName: patient,
    });
    expect((await admin.post(`/cases/${caseId}/notes`, { text: note })).status).toBe(201);
    await walkOn(caseId, 'Completed');
    const dataSource = await new DataSource({
      type: 'postgres',
      url: lab.databaseUrl,
      poolSize: 2,
    }).initialize();
    let notes: Record<string, unknown>[];
    try {
      const rebuilder = new ProjectionRebuilder(
        dataSource,
        createEventStore(dataSource, lab.app.get(CaseKeys)),
      );
      // A rebuild that has written the whole log into its shadow tables, and stops before its swap.
      const [{ events }] = await sql(lab.databaseUrl, 'SELECT count(*)::int AS events FROM events');
      const batchSize = 50;
      await expect(
        rebuilder.run({ batchSize, flushIntervalMs: 0, crashAfterWrites: Math.ceil(events / batchSize) }),
      ).rejects.toThrow('stopped by its test hook');
      expect(await tablesHolding(note)).toEqual(expect.arrayContaining(['case_notes', 'case_notes_rebuild']));
      // The case is erased meanwhile, and noted again after it; then the rebuild resumes, catches
      // up and swaps: the note after the erasure keeps its text.
      expect((await admin.post(`/cases/${caseId}/erase`, { reason: REASON })).status).toBe(200);
      expect((await admin.post(`/cases/${caseId}/notes`, { text: LATER_NOTE })).status).toBe(201);
      notes = await sql(lab.databaseUrl, 'SELECT * FROM case_notes WHERE case_id = $1 ORDER BY ordinal', [
        caseId,
      ]);
      expect(new Set(notes.map((row) => (row.note as { text: string }).text))).toEqual(
        new Set(['[erased]', LATER_NOTE]),
      );
      const resumed = await rebuilder.run();
      expect(resumed).toMatchObject({ state: 'done', resumedFrom: events });
    } finally {
      await dataSource.destroy();
    }
    for (const text of [patient, note])
      expect({ text, tables: await tablesHolding(text) }).toEqual({ text, tables: [] });
    expect(
      await sql(lab.databaseUrl, 'SELECT * FROM case_notes WHERE case_id = $1 ORDER BY ordinal', [caseId]),
    ).toEqual(notes);
  });

  it('a restore of a backup taken after it gives the identical erased case', async () => {
    const backup = (await admin.get('/backup')).body;
    expect((await admin.post('/restore', backup)).status).toBe(200);
    const { version: _version, ...restored } = (await admin.get(`/cases/${id}`)).body;
    const { version: _erasedVersion, ...expected } = erased;
    expect(restored).toEqual(expected);
    for (const text of [PATIENT, NOTE, COMMENT]) expect(await tablesHolding(text)).toEqual([]);
  });
});
