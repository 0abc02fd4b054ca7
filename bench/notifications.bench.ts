import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startWorkerProcess } from '../test/support/worker-process';
import { BullMqDriver } from '../backend/src/notifications/queue/bullmq.driver';
import type { NotificationJob } from '../backend/src/notifications/queue/notification-queue';
import { loadOrCreateKeyFile } from '../backend/src/notifications/vapid-keys';
import { createTestDatabase } from '../test/support/database';
import { clearQueuePrefix } from '../test/support/helpers';
import {
  thousands,
  cpuSeconds,
  cpuSecondsByName,
  cpuSecondsSince,
  mainThreadCpuSeconds,
} from './support/load';
import { PushServiceProcess } from '../test/support/push-service';
import { loadNotificationsConfig } from '../backend/src/config/notifications.config';
import { loadConfig } from '../backend/src/config/config';
import { recordFigure, type Figure } from './support/report';

/**
 * Delivery throughput of ONE worker process (`PROCESS_ROLE=worker`, BullMQ on the local Redis)
 * against the local HTTPS push receiver (test/support/push-service.ts) in a process of its own,
 * which verifies every VAPID JWT (ES256) and decrypts every payload. Everything runs on this
 * machine, so the receiver's, PostgreSQL's and Redis's CPU compete with the worker's. Jobs are
 * queued all at once after the worker is up; the clock runs from the enqueue until the last
 * outcome is recorded in PostgreSQL. One device per job, so jobs/s = pushes/s. Each worker runs
 * two such rounds: the first from a cold start (its optimising compiler is still at work on the
 * hot paths, and its connections to the receiver are still being opened), the second, the
 * figure, as a worker that has been running for a while does; both are reported.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SCENARIOS = [
  { concurrency: 1, jobs: 300 },
  { concurrency: 10, jobs: 2000 },
  { concurrency: 50, jobs: 3000 },
  { concurrency: 100, jobs: 3000 },
];
const USERS = 20;
/** What a worker runs at once unless NOTIFICATIONS_CONCURRENCY says otherwise. */
const DEFAULT_CONCURRENCY = loadNotificationsConfig(
  loadConfig({
    DATABASE_URL: 'postgres://unused',
    ADMIN_PASSWORD: 'bench-lab-password',
    DATA_DIR: tmpdir(),
  }),
  {},
).concurrency;

describe('notification delivery throughput', () => {
  it('measures jobs/s of one worker process', async () => {
    const database = await createTestDatabase();
    const push = await PushServiceProcess.start();
    const dataDir = mkdtempSync(join(tmpdir(), 'af-bench-'));
    const db = new Client({ connectionString: database.url });
    await db.connect();
    const results: {
      concurrency: number;
      jobs: number;
      perSecond: number;
      coldPerSecond: number;
      coldWorkerCpu: number;
      coldWorkerMainThread: number;
      workerMainThread: number;
      cpu: { worker: number; receiver: number; postgres: number; redis: number };
      line: string;
    }[] = [];
    try {
      await push.expectVapidKey((await loadOrCreateKeyFile(dataDir)).publicKey);
      for (let user = 0; user < USERS; user++) {
        const subscription = await push.subscribe();
        await db.query('INSERT INTO push_subscriptions (username, endpoint, keys) VALUES ($1, $2, $3)', [
          `bench${user}`,
          subscription.endpoint,
          JSON.stringify(subscription.keys),
        ]);
      }
      const only = process.env.BENCH_NOTIFICATIONS_CONCURRENCY?.split(',').map(Number);
      for (const { concurrency, jobs } of SCENARIOS.filter((s) => !only || only.includes(s.concurrency))) {
        const prefix = `af-bench-${randomBytes(4).toString('hex')}`;
        const worker = await startWorkerProcess(
          {
            DATABASE_URL: database.url,
            ADMIN_PASSWORD: 'demo',
            REDIS_URL,
            DATA_DIR: dataDir,
            NODE_EXTRA_CA_CERTS: push.caFile,
            NOTIFICATIONS_QUEUE_PREFIX: prefix,
            NOTIFICATIONS_CONCURRENCY: String(concurrency),
            PUSH_ALLOWED_HOSTS: new URL(push.url).host,
          },
          { nodeArgs: process.env.BENCH_WORKER_NODE_ARGS?.split(' ').filter(Boolean) },
        );
        const producer = new BullMqDriver({
          redisUrl: REDIS_URL,
          prefix,
          policy: { attempts: 5, backoffMs: 1000 },
          lockMs: 15000,
          onError: () => undefined,
        });
        /** Queues `jobs` at once and waits until each has an outcome in PostgreSQL. */
        const round = async (jobs: number) => {
          const batch = randomBytes(3).toString('hex');
          const queued: NotificationJob[] = Array.from({ length: jobs }, (_, index) => ({
            id: `bench${batch}-${index}-webpush`,
            channel: 'webpush',
            username: `bench${index % USERS}`,
            message: {
              title: 'Treatment plan ready',
              body: `The treatment plan of Patient ${index} is waiting for your approval.`,
              caseId: `CA-2025-${100 + (index % 900)}`,
              url: '/',
              icon: '/icons/icon-192.png',
            },
            eventPosition: null,
          }));
          const received = (await push.counts()).received;
          const workerCpu = cpuSeconds(worker.child.pid!);
          const workerMainCpu = mainThreadCpuSeconds(worker.child.pid!);
          const pushCpu = cpuSeconds(push.child.pid!);
          const postgresCpu = cpuSecondsByName('postgres');
          const redisCpu = cpuSecondsByName('redis-server');
          const started = process.hrtime.bigint();
          for (let start = 0; start < jobs; start += 500)
            await producer.enqueue(queued.slice(start, start + 500));
          const enqueuedMs = Number(process.hrtime.bigint() - started) / 1e6;
          for (;;) {
            const { rows } = await db.query(
              `SELECT count(*)::int AS n FROM notification_deliveries WHERE id LIKE $1 AND status <> 'queued'`,
              [`bench${batch}-%`],
            );
            if (rows[0].n >= jobs) break;
            if (Number(process.hrtime.bigint() - started) / 1e9 > 300) throw new Error('bench timed out');
            await new Promise((resolve) => setTimeout(resolve, 25));
          }
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const cpu = cpuSeconds(worker.child.pid!) - workerCpu;
          const mainCpu = mainThreadCpuSeconds(worker.child.pid!) - workerMainCpu;
          const receiverCpu = cpuSeconds(push.child.pid!) - pushCpu;
          const databaseCpu = cpuSecondsSince(postgresCpu, 'postgres');
          const queueCpu = cpuSecondsSince(redisCpu, 'redis-server');
          const { rows } = await db.query(
            `SELECT status, count(*)::int AS n FROM notification_deliveries WHERE id LIKE $1 GROUP BY status`,
            [`bench${batch}-%`],
          );
          expect(rows).toEqual([{ status: 'delivered', n: jobs }]);
          const counts = await push.counts();
          expect(counts.received - received).toBe(jobs);
          expect(counts.rejected).toEqual([]);
          const msPerJob = (cpuSecondsUsed: number) => (cpuSecondsUsed / jobs) * 1000;
          return {
            jobs,
            seconds,
            perSecond: Math.round(jobs / seconds),
            enqueuedMs,
            workerMainThread: msPerJob(mainCpu),
            cpu: {
              worker: msPerJob(cpu),
              receiver: msPerJob(receiverCpu),
              postgres: msPerJob(databaseCpu),
              redis: msPerJob(queueCpu),
            },
          };
        };
        try {
          const cold = await round(jobs);
          const warm = await round(jobs);
          const { cpu } = warm;
          results.push({
            concurrency,
            perSecond: warm.perSecond,
            jobs,
            coldPerSecond: cold.perSecond,
            coldWorkerCpu: cold.cpu.worker,
            coldWorkerMainThread: cold.workerMainThread,
            workerMainThread: warm.workerMainThread,
            cpu,
            line:
              `concurrency ${String(concurrency).padStart(3)}: ${String(jobs).padStart(4)} jobs in ${warm.seconds.toFixed(2)} s` +
              ` = ${warm.perSecond} jobs/s; worker CPU ${cpu.worker.toFixed(2)} ms/job` +
              ` (main thread ${warm.workerMainThread.toFixed(2)})` +
              ` (= ${Math.round(1000 / cpu.worker)} jobs per CPU-second); push receiver CPU ` +
              `${cpu.receiver.toFixed(2)} ms/job; PostgreSQL ${cpu.postgres.toFixed(2)} ms/job; ` +
              `Redis ${cpu.redis.toFixed(2)} ms/job; enqueue ${Math.round(warm.enqueuedMs)} ms` +
              ` (the first ${jobs} from a cold start: ${cold.perSecond} jobs/s, worker CPU ${cold.cpu.worker.toFixed(2)} ms/job,` +
              ` main thread ${cold.workerMainThread.toFixed(2)})`,
          });
        } finally {
          await producer.close();
          await worker.stop();
          await clearQueuePrefix(REDIS_URL, prefix);
        }
      }
    } finally {
      await db.end();
      await push.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    const os = await import('node:os');
    process.stdout.write(
      `\nNotification delivery, one worker process, local HTTPS push receiver in its own process (${os.cpus().length} cores, ` +
        `load average ${os.loadavg()[0].toFixed(1)}, Node ${process.version}):\n` +
        results.map(({ line }) => `  ${line}\n`).join(''),
    );
    const shipped = results.find(({ concurrency }) => concurrency === DEFAULT_CONCURRENCY);
    if (!shipped) return; // a partial run (BENCH_NOTIFICATIONS_CONCURRENCY) without the default
    const figure: Figure = {
      id: 'notifications',
      figure: `Notification deliveries, one worker (concurrency ${DEFAULT_CONCURRENCY}, the default), to a local push receiver`,
      measured:
        `${thousands(shipped.perSecond)}/s (others: ${results
          .filter((result) => result !== shipped)
          .map((result) => `${result.concurrency}: ${thousands(result.perSecond)}/s`)
          .join(', ')}); CPU per job from /proc: the worker ${shipped.cpu.worker.toFixed(2)} ms ` +
        `(its main thread ${shipped.workerMainThread.toFixed(2)} ms, the rest its compiler, GC and pool threads), ` +
        `the push receiver ${shipped.cpu.receiver.toFixed(2)} ms, PostgreSQL ${shipped.cpu.postgres.toFixed(2)} ms, ` +
        `Redis ${shipped.cpu.redis.toFixed(2)} ms: ${Object.values(shipped.cpu)
          .reduce((sum, ms) => sum + ms, 0)
          .toFixed(
            2,
          )} ms in all, where 1,000/s on ${os.cpus().length} cores allows ${os.cpus().length} ms; ` +
        `the same worker's first ${thousands(shipped.jobs)} jobs ` +
        `from a cold start: ${thousands(shipped.coldPerSecond)}/s at ${shipped.coldWorkerCpu.toFixed(2)} ms of worker CPU per job ` +
        `(main thread ${shipped.coldWorkerMainThread.toFixed(2)} ms)`,
      target: '≥ 1,000/s',
      met: shipped.perSecond >= 1000,
      bench: 'bench/notifications.bench.ts',
    };
    recordFigure(figure);
  });
});
