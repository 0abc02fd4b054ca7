import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { globalAgent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { Redis } from 'ioredis';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process';
import { FcmStub } from './support/fcm-stub';
import { eventually, notificationsSettled, sql, withEnv } from './support/helpers';
import type { ApiClient } from './support/http';
import { PushService, type BrowserSubscription } from './support/push-service';
import { startTestApp, type TestApp } from './support/test-app';

// A test waits for the notifications to catch up (notificationsSettled): a loaded machine is slow at it.
jest.setTimeout(120_000);

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function pushesFor(push: PushService, subscription: BrowserSubscription, caseId: string) {
  return push.receivedBy(subscription).filter((received) => received.payload.caseId === caseId);
}

describe('notifications: API process + separate worker process (BullMQ on the real Redis)', () => {
  let lab: TestApp;
  let worker: WorkerProcess;
  let push: PushService;
  let fcm: FcmStub;
  let dataDir: string;
  let prefix: string;
  let admin: ApiClient, rep: ApiClient, designer: ApiClient, drLee: ApiClient;
  let adminPhone: BrowserSubscription, leeLaptop: BrowserSubscription, leePhone: BrowserSubscription;

  beforeAll(async () => {
    [push, fcm] = await Promise.all([PushService.start(), FcmStub.start()]);
    dataDir = mkdtempSync(join(tmpdir(), 'af-notif-'));
    prefix = `af-test-${randomBytes(4).toString('hex')}`;
    const env = {
      ...fcm.env(),
      NOTIFICATIONS_QUEUE_PREFIX: prefix,
      NOTIFICATIONS_BACKOFF_MS: '100',
      // The local push service is on the loopback address, which only a listed host:port may be.
      PUSH_ALLOWED_HOSTS: push.host,
    };
    lab = await withEnv(env, () => startTestApp({ REDIS_URL, PROCESS_ROLE: 'api', DATA_DIR: dataDir }));
    worker = await startWorkerProcess({
      ...env,
      DATABASE_URL: lab.databaseUrl,
      ADMIN_PASSWORD: 'demo',
      REDIS_URL,
      DATA_DIR: dataDir,
      // The worker trusts the local push service's self-signed certificate like a system CA.
      NODE_EXTRA_CA_CERTS: push.caFile,
    });
    [admin, rep, designer, drLee] = await Promise.all(
      ['admin', 'rep', 'designer', 'dr.lee'].map((name) => lab.login(name)),
    );
  }, 240_000);

  afterAll(async () => {
    await worker?.stop();
    await lab?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await Promise.all([push?.close(), fcm?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(push.rejected).toEqual([]);
    expect(fcm.rejected).toEqual([]);
  });

  it('hands out one VAPID public key, kept in DATA_DIR, to anyone', async () => {
    const answer = await lab.anonymous.get('/push/vapid-public-key');
    expect(answer.status).toBe(200);
    expect(Buffer.from(answer.body.publicKey, 'base64url')).toHaveLength(65);
    const stored = JSON.parse(readFileSync(join(dataDir, 'vapid.json'), 'utf8'));
    expect(stored.publicKey).toBe(answer.body.publicKey);
    expect((await lab.anonymous.get('/push/vapid-public-key')).body).toEqual(answer.body);
    // Every message must be signed with this key: the worker process reads the same file.
    push.expectVapidKey(answer.body.publicKey);
  });

  it('subscribes browsers (one user, several devices) and FCM tokens, for oneself only', async () => {
    adminPhone = push.subscribe();
    leeLaptop = push.subscribe();
    leePhone = push.subscribe();
    expect((await lab.anonymous.post('/push/subscribe', adminPhone)).status).toBe(401);
    expect(await drLee.post('/push/subscribe', { ...leeLaptop, username: 'dr.patel' })).toMatchObject({
      status: 403,
      body: { error: 'You can only subscribe your own devices.' },
    });
    expect(
      (await drLee.post('/push/subscribe', { ...leeLaptop, endpoint: 'http://127.0.0.1/push/x' })).status,
    ).toBe(400);
    expect(
      await drLee.post('/push/subscribe', {
        ...leeLaptop,
        keys: { p256dh: 'AAAA', auth: leeLaptop.keys.auth },
      }),
    ).toMatchObject({ status: 400, body: { error: 'The push subscription keys are invalid.' } });
    expect((await drLee.post('/push/subscribe', { ...leeLaptop, keys: undefined })).status).toBe(400);

    expect((await admin.post('/push/subscribe', { ...adminPhone, username: 'ADMIN' })).status).toBe(201);
    expect((await drLee.post('/push/subscribe', { ...leeLaptop, username: 'dr.lee' })).status).toBe(201);
    expect((await drLee.post('/push/subscribe', leePhone)).status).toBe(201);
    expect((await drLee.post('/push/subscribe', leePhone)).status).toBe(201); // again: still one row
    const rows = await sql(lab.databaseUrl, 'SELECT username, endpoint FROM push_subscriptions ORDER BY id');
    expect(rows).toEqual([
      { username: 'admin', endpoint: adminPhone.endpoint },
      { username: 'dr.lee', endpoint: leeLaptop.endpoint },
      { username: 'dr.lee', endpoint: leePhone.endpoint },
    ]);

    // Signing out on a shared browser: only one's own subscription can be removed.
    const shared = push.subscribe();
    expect((await rep.post('/push/subscribe', shared)).status).toBe(201);
    expect((await drLee.post('/push/unsubscribe', { endpoint: shared.endpoint })).status).toBe(204);
    expect(
      await sql(lab.databaseUrl, 'SELECT 1 FROM push_subscriptions WHERE endpoint = $1', [shared.endpoint]),
    ).toHaveLength(1);
    expect((await rep.post('/push/unsubscribe', { endpoint: shared.endpoint })).status).toBe(204);
    expect(
      await sql(lab.databaseUrl, 'SELECT 1 FROM push_subscriptions WHERE endpoint = $1', [shared.endpoint]),
    ).toHaveLength(0);

    expect(await drLee.put('/push/fcm-token', { token: '  ' })).toMatchObject({
      status: 400,
      body: { error: 'Please provide an FCM token.' },
    });
    expect((await drLee.put('/push/fcm-token', {})).status).toBe(400);
    expect((await drLee.put('/push/fcm-token', { token: 'fcm-dr-lee-phone' })).status).toBe(204);
  });

  it('a manager subscription gets exactly one push when a doctor submits a case', async () => {
    const created = await drLee.post('/cases', {
      patientName: 'Grace Hopper',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles Dental',
      priority: 'Normal',
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await push.waitFor(() => pushesFor(push, adminPhone, id).length >= 1, 15000, 'the manager push');
    await notificationsSettled(lab.databaseUrl);
    const received = pushesFor(push, adminPhone, id);
    expect(received).toHaveLength(1);
    expect(received[0].payload).toEqual({
      title: 'New case submitted',
      body: `${id} for Grace Hopper is waiting for approval.`,
      caseId: id,
      url: `/?case=${id}`,
      icon: '/icons/icon-192.png',
    });
    expect(received[0].ttl).toBeGreaterThan(0);
    // Nobody else is a manager with a device: the doctor's devices got nothing about it.
    expect(pushesFor(push, leeLaptop, id)).toHaveLength(0);
  });

  it("a doctor's devices get exactly one push (and FCM message) when their case reaches Doctor Approval", async () => {
    const created = await rep.post('/cases', {
      patientName: 'Ada Lovelace',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles Dental',
      priority: 'High',
    });
    const id: string = created.body.id;
    expect((await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.lee' })).status).toBe(200);
    await notificationsSettled(lab.databaseUrl);
    expect(pushesFor(push, leeLaptop, id)).toHaveLength(0); // approval alone tells the doctor nothing
    const advanced = await designer.post(`/cases/${id}/advance`, { fromStatus: 'Digital Planning' });
    expect(advanced.body.status).toBe('Doctor Approval');

    await push.waitFor(
      () => pushesFor(push, leeLaptop, id).length >= 1 && pushesFor(push, leePhone, id).length >= 1,
      15000,
      "the doctor's pushes",
    );
    await eventually(
      () => fcm.messages.some((message) => message.data?.caseId === id),
      15000,
      'the FCM message',
    );
    await notificationsSettled(lab.databaseUrl);
    for (const device of [leeLaptop, leePhone]) {
      const received = pushesFor(push, device, id);
      expect(received).toHaveLength(1);
      expect(received[0].payload).toMatchObject({
        title: 'Treatment plan ready',
        body: `The treatment plan of Ada Lovelace (${id}) is waiting for your approval.`,
        caseId: id,
      });
    }
    const fcmMessages = fcm.messages.filter((message) => message.data?.caseId === id);
    expect(fcmMessages).toEqual([
      expect.objectContaining({
        token: 'fcm-dr-lee-phone',
        notification: expect.objectContaining({ title: 'Treatment plan ready' }),
      }),
    ]);

    // The delivery log names each job by (event position, recipient, channel).
    const deliveries = await admin.get('/notifications/deliveries');
    expect(deliveries.status).toBe(200);
    const [{ position }] = await sql(
      lab.databaseUrl,
      `SELECT global_position::text AS position FROM events WHERE stream_id = $1 AND type = 'StageAdvanced'
        ORDER BY global_position DESC LIMIT 1`,
      [`case-${id}`],
    );
    const mine = deliveries.body.filter((row: { id: string }) => row.id.startsWith(`ev${position}-`));
    expect(mine.sort((a: any, b: any) => a.id.localeCompare(b.id))).toEqual([
      {
        id: `ev${position}-fcm-dr.lee`,
        channel: 'fcm',
        username: 'dr.lee',
        status: 'delivered',
        attempts: 1,
        lastError: null,
        at: expect.any(String),
      },
      {
        id: `ev${position}-webpush-dr.lee`,
        channel: 'webpush',
        username: 'dr.lee',
        status: 'delivered',
        attempts: 1,
        lastError: null,
        at: expect.any(String),
      },
    ]);
    // dr.patel has no device and is not the case's doctor: nothing queued for them.
    expect(deliveries.body.some((row: { username: string }) => row.username === 'dr.patel')).toBe(false);
  });

  it('lets only managers send, with the spec texts', async () => {
    expect(await rep.post('/push/test', {})).toMatchObject({ status: 403 });
    expect(await drLee.post('/push/send/admin', { body: 'hi' })).toMatchObject({ status: 403 });
    expect(await drLee.get('/notifications/deliveries')).toMatchObject({ status: 403 });
    for (const body of [{ body: '   ' }, {}, { title: 'Only a title' }]) {
      for (const path of ['/push/send/dr.lee', '/fcm/send/dr.lee']) {
        expect(await admin.post(path, body)).toMatchObject({
          status: 400,
          body: { error: 'Please enter a message body.' },
        });
      }
    }
    expect(await admin.post('/push/send/nobody', { body: 'hi' })).toMatchObject({
      status: 404,
      body: { error: 'User not found.' },
    });
    expect(await admin.post('/push/send/dr.patel', { body: 'hi' })).toMatchObject({
      status: 409,
      body: { error: 'dr.patel has no device subscribed to web push.' },
    });
    expect(await admin.post('/fcm/send/dr.patel', { body: 'hi' })).toMatchObject({
      status: 409,
      body: { error: 'dr.patel has no FCM token.' },
    });
  });

  it('sends targeted web push and FCM, and a test notification to the manager’s own devices', async () => {
    const before = { lee: push.receivedBy(leeLaptop).length, admin: push.receivedBy(adminPhone).length };
    expect(await admin.post('/push/send/DR.LEE', { body: '  Please check the new scan.  ' })).toMatchObject({
      status: 202,
      body: { queued: 2 },
    });
    expect(await admin.post('/fcm/send/dr.lee', { title: 'Lab', body: 'Aligners shipped' })).toMatchObject({
      status: 202,
      body: { queued: 1 },
    });
    expect(await admin.post('/push/test', {})).toMatchObject({ status: 202, body: { queued: 1 } });

    await push.waitFor(
      () =>
        push.receivedBy(leeLaptop).length > before.lee && push.receivedBy(adminPhone).length > before.admin,
    );
    await eventually(() => fcm.messages.some((message) => message.notification?.body === 'Aligners shipped'));
    expect(push.receivedBy(leeLaptop).at(-1)!.payload).toEqual({
      title: 'AlignerFlow',
      body: 'Please check the new scan.',
      caseId: null,
      url: '/',
      icon: '/icons/icon-192.png',
    });
    expect(push.receivedBy(adminPhone).at(-1)!.payload).toMatchObject({
      title: 'AlignerFlow',
      body: 'You have a new update',
    });
    expect(fcm.messages.at(-1)).toMatchObject({
      token: 'fcm-dr-lee-phone',
      notification: { title: 'Lab', body: 'Aligners shipped' },
    });
  });

  it('turns activation sound off through PUT /users/{username}', async () => {
    expect(await drLee.put('/users/dr.lee', { activationSoundEnabled: false })).toMatchObject({
      status: 200,
      body: { activationSoundEnabled: false },
    });
  });

  it('sends no push or FCM to a user who turned push off, and again once it is on', async () => {
    expect((await drLee.put('/users/dr.lee', { notify: { push: false } })).body.notify).toEqual({
      push: false,
      email: true,
    });
    const toDoctorApproval = async (patientName: string) => {
      const created = await rep.post('/cases', {
        patientName,
        doctorName: 'Dr. Sarah Lee',
        clinicName: 'Bright Smiles Dental',
        priority: 'Normal',
      });
      const id: string = created.body.id;
      expect((await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.lee' })).status).toBe(200);
      expect((await designer.post(`/cases/${id}/advance`, { fromStatus: 'Digital Planning' })).status).toBe(
        200,
      );
      const [{ position }] = await sql(
        lab.databaseUrl,
        `SELECT global_position::text AS position FROM events WHERE stream_id = $1 AND type = 'StageAdvanced'`,
        [`case-${id}`],
      );
      return { id, position };
    };
    const silent = await toDoctorApproval('Edsger Dijkstra');
    // Dispatched past the event, no job for it at all (the doctor has devices on both channels).
    await eventually(
      async () => {
        const [row] = await sql(
          lab.databaseUrl,
          `SELECT global_position >= $1::bigint AS past FROM projection_checkpoints WHERE name = 'notifications'`,
          [silent.position],
        );
        return !!row?.past;
      },
      15000,
      'the dispatcher to pass the event',
    );
    expect(
      await sql(lab.databaseUrl, 'SELECT id FROM notification_deliveries WHERE event_position = $1', [
        silent.position,
      ]),
    ).toEqual([]);

    expect((await drLee.put('/users/dr.lee', { notify: { push: true } })).status).toBe(200);
    const heard = await toDoctorApproval('Barbara Liskov');
    await push.waitFor(() => pushesFor(push, leeLaptop, heard.id).length >= 1, 15000, "the doctor's push");
    expect(pushesFor(push, leeLaptop, silent.id)).toHaveLength(0);
    expect(pushesFor(push, leePhone, silent.id)).toHaveLength(0);
    expect(fcm.messages.some((message) => message.data?.caseId === silent.id)).toBe(false);
  });

  it('runs one dispatcher at a time: API and worker process share the work through the lock', async () => {
    const holders = await sql(
      lab.databaseUrl,
      `SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND granted
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND ((classid::bigint << 32) | objid::bigint) = 7240913350164081004`,
    );
    expect(holders[0].n).toBe(1);
    const [last] = await sql(lab.databaseUrl, 'SELECT max(global_position)::text AS position FROM events');
    await eventually(
      async () =>
        (
          await sql(
            lab.databaseUrl,
            `SELECT global_position::text AS position FROM projection_checkpoints WHERE name = 'notifications'`,
          )
        )[0]?.position === last.position,
      30000,
      'the checkpoint to reach the last event',
    );
    expect(worker.child.exitCode).toBeNull();
  });
});

describe('notifications: embedded default (no REDIS_URL, the in-process driver)', () => {
  let lab: TestApp;
  let push: PushService;
  let dataDir: string;
  const savedCa = globalAgent.options.ca;

  beforeAll(async () => {
    push = await PushService.start();
    // In this process the in-process worker uses Node's global agent: trust the local service.
    globalAgent.options.ca = [...rootCertificates, push.caPem];
    dataDir = mkdtempSync(join(tmpdir(), 'af-notif-'));
    lab = await withEnv({ NOTIFICATIONS_BACKOFF_MS: '100', PUSH_ALLOWED_HOSTS: push.host }, () =>
      startTestApp({ DATA_DIR: dataDir }),
    );
  });

  afterAll(async () => {
    await lab?.close();
    await push?.close();
    globalAgent.options.ca = savedCa;
    globalAgent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers a doctor push through the same worker code, and answers 503 for FCM', async () => {
    const [admin, designer, drPatel] = await Promise.all(
      ['admin', 'designer', 'dr.patel'].map((n) => lab.login(n)),
    );
    push.expectVapidKey((await lab.anonymous.get('/push/vapid-public-key')).body.publicKey);
    const device = push.subscribe();
    expect((await drPatel.post('/push/subscribe', device)).status).toBe(201);
    push.script(device, [500]); // retried in-process too
    const { id } = (
      await admin.post('/cases', {
        patientName: 'Alan Turing',
        doctorName: 'Dr. Patel',
        clinicName: 'Clinic',
      })
    ).body;
    await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.patel' });
    await designer.post(`/cases/${id}/advance`);
    await push.waitFor(() => pushesFor(push, device, id).length >= 1);
    await notificationsSettled(lab.databaseUrl);
    expect(pushesFor(push, device, id)).toHaveLength(1);
    expect(push.rejected).toEqual([]);
    const deliveries = (await admin.get('/notifications/deliveries')).body;
    expect(deliveries.find((row: { username: string }) => row.username === 'dr.patel')).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });

    expect(await admin.post('/fcm/send/dr.patel', { body: 'hi' })).toMatchObject({
      status: 503,
      body: { error: 'FCM is not configured.' },
    });
  });
});
