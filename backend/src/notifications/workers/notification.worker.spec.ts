import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { useTestDataSource } from '../../../../test/support/data-source';
import { FcmStub } from '../../../../test/support/fcm-stub';
import { PushService, type BrowserSubscription } from '../../../../test/support/push-service';
import { loadConfig } from '../../config/config';
import { NotificationStore } from '../notification-store';
import { loadNotificationsConfig, MAX_ATTEMPTS } from '../../config/notifications.config';
import { PushEndpointGuard } from '../outbound/push-endpoint-guard';
import { BullMqDriver } from '../queue/bullmq.driver';
import { InProcessDriver } from '../queue/in-process.driver';
import type { Channel, NotificationJob, NotificationQueue } from '../queue/notification-queue';
import { VapidKeys } from '../vapid-keys';
import { EmailWorker } from '../email/email.worker';
import { FcmWorker } from './fcm.worker';
import { NotificationWorker } from './notification.worker';
import { WebPushWorker } from './web-push.worker';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const POLICY = { attempts: MAX_ATTEMPTS, backoffMs: 40 };

/**
 * The worker against a real local push service (VAPID checked, payload decrypted) and a real
 * local FCM stand-in, on a real database, through both queue drivers.
 */
describe.each(['in-process', 'bullmq'] as const)('notification worker (%s driver)', (driver) => {
  const database = useTestDataSource(10);
  let store: NotificationStore;
  let push: PushService;
  let fcm: FcmStub;
  let dataDir: string;
  let agent: Agent;
  let queue: NotificationQueue;
  let worker: NotificationWorker;
  let unconfiguredWorker: NotificationWorker;
  let prefix: string;

  beforeAll(async () => {
    Logger.overrideLogger(['error']);
    [push, fcm] = await Promise.all([PushService.start(), FcmStub.start()]);
    store = new NotificationStore(database.dataSource);
    dataDir = mkdtempSync(join(tmpdir(), 'af-worker-'));
    const app = loadConfig({
      DATABASE_URL: database.url,
      ADMIN_PASSWORD: 'test-lab-password',
      DATA_DIR: dataDir,
    });
    const config = loadNotificationsConfig(app, { ...fcm.env(), PUSH_ALLOWED_HOSTS: push.host });
    const vapid = new VapidKeys(config);
    push.expectVapidKey((await vapid.get()).publicKey);
    agent = new Agent({ ca: push.caPem, keepAlive: true });
    const webPush = new WebPushWorker(store, vapid, new PushEndpointGuard(config), agent);
    const email = new EmailWorker(database.dataSource, config);
    worker = new NotificationWorker(store, webPush, new FcmWorker(store, config), email);
    unconfiguredWorker = new NotificationWorker(
      store,
      webPush,
      new FcmWorker(store, loadNotificationsConfig(app, {})),
      email,
    );
  });

  afterAll(async () => {
    agent.destroy();
    await Promise.all([push.close(), fcm.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  function newQueue(): NotificationQueue {
    return driver === 'in-process'
      ? new InProcessDriver(POLICY)
      : new BullMqDriver({
          redisUrl: REDIS_URL,
          prefix,
          policy: POLICY,
          lockMs: 5000,
          onError: () => undefined,
        });
  }

  beforeEach(() => {
    prefix = `af-test-${randomBytes(4).toString('hex')}`;
    queue = newQueue();
    queue.process(worker.handle, { concurrency: 4 });
  });

  afterEach(async () => {
    await queue.close();
    if (driver === 'bullmq') {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
    expect(push.rejected).toEqual([]);
    expect(fcm.rejected).toEqual([]);
  });

  function newUser(): string {
    return `user.${randomBytes(4).toString('hex')}`;
  }

  function job(username: string, channel: Channel = 'webpush'): NotificationJob {
    return {
      id: `t${randomBytes(6).toString('hex')}-${channel}-${username}`,
      channel,
      username,
      message: {
        title: 'Treatment plan ready',
        body: 'The plan of Ada (CA-2025-123) is waiting for your approval.',
        caseId: 'CA-2025-123',
        url: '/?case=CA-2025-123',
        icon: '/icons/icon-192.png',
      },
      eventPosition: null,
    };
  }

  async function subscribe(username: string): Promise<BrowserSubscription> {
    const subscription = push.subscribe();
    await store.saveSubscription(username, subscription.endpoint, subscription.keys);
    return subscription;
  }

  async function delivery(id: string) {
    return (await store.recent(500)).find((row) => row.id === id);
  }

  /** Queues like the dispatcher does and waits for the outcome. */
  async function run(queued: NotificationJob, attempts = 1) {
    await queue.enqueue([queued]);
    await store.recordQueued([queued]);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const row = await delivery(queued.id);
      if (row && row.status !== 'queued' && row.attempts >= attempts) return row;
      if (Date.now() > deadline) throw new Error(`job ${queued.id} still ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('delivers to every device of the user exactly once, and never again for the same job', async () => {
    const username = newUser();
    const [phone, laptop] = [await subscribe(username), await subscribe(username)];
    const sent = job(username);
    expect(await run(sent)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastError: null,
      channel: 'webpush',
    });
    for (const device of [phone, laptop]) {
      const received = push.receivedBy(device);
      expect(received).toHaveLength(1);
      expect(received[0].payload).toEqual(sent.message);
      expect(received[0].topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(received[0]).toMatchObject({ ttl: 24 * 3600, urgency: 'normal' });
      expect(received[0].vapid.sub).toBe('mailto:admin@example.com');
    }
    // Queued again (a replay) and even run again directly: the record says it is done.
    await queue.enqueue([sent]);
    await worker.handle(sent, { attempt: 1, maxAttempts: MAX_ATTEMPTS });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(push.receivedBy(phone)).toHaveLength(1);
    expect(push.receivedBy(laptop)).toHaveLength(1);
  });

  it('runs many jobs at once (their database writes shared), each delivered once and recorded as its own', async () => {
    const users = Array.from({ length: 12 }, () => newUser());
    const devices = await Promise.all(users.map((username) => subscribe(username)));
    const flaky = devices[3];
    push.script(flaky, [500]);
    const jobs = users.map((username) => job(username));
    await store.recordQueued(jobs);
    const outcomes = await Promise.allSettled(
      jobs.map((queued) => worker.handle(queued, { attempt: 1, maxAttempts: MAX_ATTEMPTS })),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(
      jobs.map((_, index) => (index === 3 ? 'rejected' : 'fulfilled')),
    );
    for (const [index, queued] of jobs.entries()) {
      expect(await delivery(queued.id)).toMatchObject(
        index === 3
          ? { status: 'queued', attempts: 1, lastError: 'push service answered 500' }
          : { status: 'delivered', attempts: 1, lastError: null },
      );
      expect(push.receivedBy(devices[index])).toHaveLength(index === 3 ? 0 : 1);
    }
  });

  it('retries a 500 with backoff and then delivers, once', async () => {
    const username = newUser();
    const device = await subscribe(username);
    push.script(device, [500, 503]);
    expect(await run(job(username), 3)).toMatchObject({ status: 'delivered', attempts: 3, lastError: null });
    expect(push.receivedBy(device)).toHaveLength(1);
  });

  it('sends a retry only to the devices that did not get it', async () => {
    const username = newUser();
    const [ok, flaky] = [await subscribe(username), await subscribe(username)];
    push.script(flaky, [500]);
    expect(await run(job(username), 2)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(push.receivedBy(ok)).toHaveLength(1);
    expect(push.receivedBy(flaky)).toHaveLength(1);
  });

  it('removes a subscription the push service answers 410 for, and delivers to the others', async () => {
    const username = newUser();
    const [gone, kept] = [await subscribe(username), await subscribe(username)];
    push.expire(gone);
    expect(await run(job(username))).toMatchObject({ status: 'delivered', attempts: 1 });
    expect((await store.subscriptionsOf(username)).map((row) => row.endpoint)).toEqual([kept.endpoint]);
    expect(push.receivedBy(kept)).toHaveLength(1);

    push.expire(kept);
    expect(await run(job(username))).toMatchObject({
      status: 'removed',
      lastError: 'The push service no longer knows the device.',
    });
    expect(await store.subscriptionsOf(username)).toEqual([]);
  });

  it('counts a job delivered when one device has it and another keeps failing', async () => {
    const username = newUser();
    const [ok, broken] = [await subscribe(username), await subscribe(username)];
    push.script(broken, [400]);
    expect(await run(job(username))).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastError: 'push service answered 400',
    });
    expect(push.receivedBy(ok)).toHaveLength(1);
    expect(push.receivedBy(broken)).toHaveLength(0);
  });

  it('records a failure after 5 attempts', async () => {
    const username = newUser();
    const device = await subscribe(username);
    push.script(device, [500, 500, 500, 500, 500]);
    expect(await run(job(username), 5)).toMatchObject({
      status: 'failed',
      attempts: 5,
      lastError: 'push service answered 500',
    });
    expect(push.receivedBy(device)).toHaveLength(0);
  });

  it('sends FCM through HTTP v1 with one OAuth token for many messages', async () => {
    const username = newUser();
    const tokens = [`tok-${randomBytes(8).toString('hex')}`, `tok-${randomBytes(8).toString('hex')}`];
    for (const token of tokens) await store.saveFcmToken(username, token);
    const before = { messages: fcm.messages.length, tokens: fcm.tokenRequests };
    const first = job(username, 'fcm');
    expect(await run(first)).toMatchObject({ status: 'delivered', channel: 'fcm' });
    expect(await run(job(username, 'fcm'))).toMatchObject({ status: 'delivered' });
    const sent = fcm.messages.slice(before.messages);
    expect(sent.map((message) => message.token).sort()).toEqual([...tokens, ...tokens].sort());
    expect(sent[0]).toEqual({
      token: expect.any(String),
      notification: { title: first.message.title, body: first.message.body },
      data: {
        title: first.message.title,
        body: first.message.body,
        caseId: 'CA-2025-123',
        url: '/?case=CA-2025-123',
        icon: '/icons/icon-192.png',
      },
    });
    expect(fcm.tokenRequests - before.tokens).toBeLessThanOrEqual(1);
  });

  it('removes an FCM token the service no longer knows, and fetches a new OAuth token after a 401', async () => {
    const username = newUser();
    await store.saveFcmToken(username, 'uninstalled-app');
    fcm.unregister('uninstalled-app');
    expect(await run(job(username, 'fcm'))).toMatchObject({ status: 'removed' });
    expect(await store.fcmTokensOf(username)).toEqual([]);

    await store.saveFcmToken(username, `tok-${randomBytes(8).toString('hex')}`);
    fcm.revokeAccessTokens();
    const before = fcm.tokenRequests;
    expect(await run(job(username, 'fcm'), 2)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(fcm.tokenRequests).toBe(before + 1);
  });

  it('fails at once, without retrying, when FCM is not configured', async () => {
    await queue.close();
    queue = newQueue();
    queue.process(unconfiguredWorker.handle, { concurrency: 1 });
    const username = newUser();
    await store.saveFcmToken(username, `tok-${randomBytes(8).toString('hex')}`);
    expect(await run(job(username, 'fcm'))).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'FCM is not configured.',
    });
  });
});
