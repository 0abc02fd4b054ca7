import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { isStopped, localPortsTo, startWorkerProcess, type WorkerProcess } from './support/worker-process';
import { freePort } from './support/app-process';
import { clearQueuePrefix, eventually, notificationsSettled, sql, withEnv } from './support/helpers';
import type { ApiClient } from './support/http';
import { PushService, type BrowserSubscription } from './support/push-service';
import { startTestApp } from './support/test-app';

const SHARED_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A Redis of this test's own, so stopping it disturbs nobody else (a free port unless given). */
const OWN_REDIS_PORT = Number(process.env.TEST_OWN_REDIS_PORT ?? 0);

/** Job slots of each worker process in the first test. */
const CONCURRENCY = 4;

/** How many notification jobs are in each status. */
async function deliveryStatuses(databaseUrl: string): Promise<Record<string, number>> {
  const rows = await sql<{ status: string; n: number }>(
    databaseUrl,
    `SELECT status, count(*)::int AS n FROM notification_deliveries GROUP BY status`,
  );
  return Object.fromEntries(rows.map(({ status, n }) => [status, n]));
}

/** Per (device, case): how many pushes arrived. Exactly once means every count is 1. */
function countsByDeviceAndCase(push: PushService): Map<string, number> {
  const counts = new Map<string, number>();
  for (const received of push.received) {
    const key = `${received.subscriptionId} ${received.payload.caseId} ${received.payload.title}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe('notifications under faults', () => {
  let push: PushService;
  let dataDir: string;

  beforeAll(async () => {
    push = await PushService.start();
    dataDir = mkdtempSync(join(tmpdir(), 'af-faults-'));
  });
  afterAll(async () => {
    await push.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a worker killed mid-batch loses and duplicates nothing: the other workers finish the batch', async () => {
    const prefix = `af-test-${randomBytes(4).toString('hex')}`;
    const env = {
      NOTIFICATIONS_QUEUE_PREFIX: prefix,
      NOTIFICATIONS_LOCK_MS: '2000',
      NOTIFICATIONS_CONCURRENCY: String(CONCURRENCY),
      PUSH_ALLOWED_HOSTS: push.host,
    };
    const lab = await withEnv(env, () =>
      startTestApp({ REDIS_URL: SHARED_REDIS_URL, PROCESS_ROLE: 'api', DATA_DIR: dataDir }),
    );
    const workers: WorkerProcess[] = [];
    const workerEnv = {
      ...env,
      DATABASE_URL: lab.databaseUrl,
      ADMIN_PASSWORD: 'demo',
      REDIS_URL: SHARED_REDIS_URL,
      DATA_DIR: dataDir,
      NODE_EXTRA_CA_CERTS: push.caFile,
    };
    try {
      // The dispatcher runs in the workers, not in the API: one tells of the demo data before any
      // device subscribes, and stops; the jobs below then wait in the log for the workers.
      const settler = await startWorkerProcess(workerEnv);
      await notificationsSettled(lab.databaseUrl);
      await settler.stop();
      const admin = await lab.login('admin');
      push.expectVapidKey((await lab.anonymous.get('/push/vapid-public-key')).body.publicKey);
      // Four managers with two browsers each; 25 new cases: 100 jobs, 200 pushes.
      const devices: BrowserSubscription[] = [];
      for (let index = 1; index <= 4; index++) {
        const username = `manager${index}`;
        expect(
          (await admin.post('/users', { username, password: 'Ledger-Quartz-1', role: 'Manager' })).status,
        ).toBe(201);
        const manager = await lab.login(username, 'Ledger-Quartz-1');
        for (let device = 0; device < 2; device++) {
          const subscription = push.subscribe();
          expect((await manager.post('/push/subscribe', subscription)).status).toBe(201);
          devices.push(subscription);
        }
      }
      const rep = await lab.login('rep');
      const caseIds: string[] = [];
      for (let index = 0; index < 25; index++) {
        const created = await rep.post('/cases', {
          patientName: `Patient ${index}`,
          doctorName: 'Dr. Lee',
          clinicName: 'Clinic',
        });
        caseIds.push(created.body.id);
      }
      const before = push.received.length;
      // Two workers at once share the queue; the dispatcher runs in the workers (one leads), not
      // in the API, and queues them all.
      workers.push(...(await Promise.all([startWorkerProcess(workerEnv), startWorkerProcess(workerEnv)])));
      await eventually(
        async () =>
          (await sql(lab.databaseUrl, `SELECT count(*)::int AS n FROM notification_deliveries`))[0].n === 100,
        15000,
        '100 queued jobs',
      );
      await push.waitFor(() => push.received.length - before >= 60, 30000, '60 pushes from the workers');
      // Freeze the service: requests now in flight stay unanswered, then kill one worker while
      // requests of its wait. The other's held requests go through on release.
      push.hold();
      // One worker holds at most CONCURRENCY jobs × 2 devices: past that, both have requests held.
      await eventually(() => push.heldCount > 2 * CONCURRENCY, 30000, 'requests of both workers held');
      // Stopped first, so its connections can be read and it opens no more before it dies.
      const victim = workers[0].child.pid!;
      process.kill(victim, 'SIGSTOP');
      await eventually(() => isStopped(victim), 10000, 'the worker stopped');
      const victimPorts = localPortsTo(victim, push.port);
      expect(push.heldOpenFrom(victimPorts)).toBeGreaterThan(0);
      await workers[0].kill();
      // Released only once the service has seen each of them go: none is then taken as accepted.
      await eventually(
        () => push.heldOpenFrom(victimPorts) === 0,
        30000,
        "the killed worker's requests closed",
      );
      push.release();
      expect(push.dropped).toBeGreaterThan(0); // requests in flight when it died: never accepted

      // Another one starts; with the survivor it takes over the dead worker's jobs once their locks expire.
      workers.push(await startWorkerProcess(workerEnv));
      await push.waitFor(() => push.received.length - before >= 200, 60000, 'all 200 pushes');
      // Every job recorded as delivered: none is left to run again, so no push can still come.
      await eventually(
        async () => (await deliveryStatuses(lab.databaseUrl)).delivered === 100,
        60000,
        'all 100 jobs delivered',
      );

      const counts = countsByDeviceAndCase(push);
      const expected = devices.flatMap((device) =>
        caseIds.map((id) => `${device.id} ${id} New case submitted`),
      );
      expect([...counts.keys()].filter((key) => expected.includes(key)).sort()).toEqual(expected.sort());
      expect([...counts.entries()].filter(([key, n]) => expected.includes(key) && n !== 1)).toEqual([]);
      expect(push.received.length - before).toBe(200);
      expect(push.rejected).toEqual([]);
      expect(await deliveryStatuses(lab.databaseUrl)).toEqual({ delivered: 100 });
    } finally {
      for (const worker of workers) await worker.stop();
      await lab.close();
      await clearQueuePrefix(SHARED_REDIS_URL, prefix);
    }
  }, 300_000);

  it('with Redis stopped during commands, commands still answer, and every notification arrives after it is back', async () => {
    const port = OWN_REDIS_PORT || (await freePort());
    const ownRedisUrl = `redis://127.0.0.1:${port}`;
    let redis = await startRedis(port);
    const env = { NOTIFICATIONS_BACKOFF_MS: '200', PUSH_ALLOWED_HOSTS: push.host };
    const lab = await withEnv(env, () =>
      startTestApp({ REDIS_URL: ownRedisUrl, PROCESS_ROLE: 'api', DATA_DIR: dataDir }),
    );
    let worker: WorkerProcess | undefined;
    try {
      worker = await startWorkerProcess({
        ...env,
        DATABASE_URL: lab.databaseUrl,
        ADMIN_PASSWORD: 'demo',
        REDIS_URL: ownRedisUrl,
        DATA_DIR: dataDir,
        NODE_EXTRA_CA_CERTS: push.caFile,
      });
      // The worker's dispatcher tells of the demo data before any device of this test subscribes.
      await notificationsSettled(lab.databaseUrl);
      const [admin, designer, drLee]: ApiClient[] = await Promise.all(
        ['admin', 'designer', 'dr.lee'].map((name) => lab.login(name)),
      );
      push.expectVapidKey((await lab.anonymous.get('/push/vapid-public-key')).body.publicKey);
      const [adminPhone, leeLaptop] = [push.subscribe(), push.subscribe()];
      expect((await admin.post('/push/subscribe', adminPhone)).status).toBe(201);
      expect((await drLee.post('/push/subscribe', leeLaptop)).status).toBe(201);
      const newCase = (patientName: string) =>
        drLee.post('/cases', { patientName, doctorName: 'Dr. Lee', clinicName: 'Clinic' });

      // Working before.
      const first = (await newCase('Before Outage')).body.id;
      await push.waitFor(() => push.receivedBy(adminPhone).some((p) => p.payload.caseId === first), 30000);

      await stopRedis(redis);
      expect((await lab.anonymous.get('/health')).body).toMatchObject({ db: 'up', redis: 'down' });
      const slowest = { ms: 0 };
      const timed = async <T>(call: () => Promise<T>): Promise<T> => {
        const started = Date.now();
        const result = await call();
        slowest.ms = Math.max(slowest.ms, Date.now() - started);
        return result;
      };
      const during: string[] = [];
      for (const name of ['Outage One', 'Outage Two', 'Outage Three']) {
        const created = await timed(() => newCase(name));
        expect(created.status).toBe(201);
        during.push(created.body.id);
      }
      expect(
        (await timed(() => admin.post(`/cases/${during[0]}/approve`, { doctorUsername: 'dr.lee' }))).status,
      ).toBe(200);
      const advanced = await timed(() => designer.post(`/cases/${during[0]}/advance`));
      expect(advanced.body.status).toBe('Doctor Approval');
      // Commands never wait for Redis; timings are reported, not judged (they belong in bench/).
      console.log(`slowest command while Redis was down: ${slowest.ms} ms`);

      // Only this test's devices: case ids are random per database, so another test's pushes may share one.
      const ours = () => [...push.receivedBy(adminPhone), ...push.receivedBy(leeLaptop)];
      expect(ours().filter((p) => during.includes(p.payload.caseId))).toEqual([]);
      // The checkpoint waits before the first event it could not queue.
      const [{ checkpoint, last }] = await sql(
        lab.databaseUrl,
        `SELECT (SELECT global_position FROM projection_checkpoints WHERE name = 'notifications')::text AS checkpoint,
                (SELECT max(global_position) FROM events)::text AS last`,
      );
      expect(BigInt(checkpoint)).toBeLessThan(BigInt(last));

      const redisBack = Date.now();
      redis = await startRedis(port); // back, and empty: nothing had been queued meanwhile
      await push.waitFor(
        () =>
          during.every((id) => push.receivedBy(adminPhone).some((p) => p.payload.caseId === id)) &&
          push.receivedBy(leeLaptop).some((p) => p.payload.caseId === during[0]),
        40000,
        'the notifications of the outage',
      );
      await notificationsSettled(lab.databaseUrl);
      // None of the outage's went out before Redis was back.
      expect(ours().filter((p) => during.includes(p.payload.caseId) && p.at < redisBack)).toEqual([]);
      for (const id of during) {
        expect(push.receivedBy(adminPhone).filter((p) => p.payload.caseId === id)).toHaveLength(1);
      }
      expect(push.receivedBy(leeLaptop).filter((p) => p.payload.caseId === during[0])).toEqual([
        expect.objectContaining({ payload: expect.objectContaining({ title: 'Treatment plan ready' }) }),
      ]);
      expect(push.receivedBy(leeLaptop)).toHaveLength(1);
      expect(push.rejected).toEqual([]);
    } finally {
      await worker?.stop();
      await lab.close();
      await stopRedis(redis);
    }
  }, 300_000);
});

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  const client = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited (port taken?)`);
        try {
          if (client.status !== 'ready') await client.connect();
          return (await client.ping()) === 'PONG';
        } catch {
          return false;
        }
      },
      10000,
      `redis-server on port ${port}`,
    );
  } finally {
    client.disconnect();
  }
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
  clearTimeout(timer);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
