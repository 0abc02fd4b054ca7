import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { BullMqDriver } from './bullmq.driver';
import { InProcessDriver } from './in-process.driver';
import {
  PermanentJobError,
  type JobContext,
  type NotificationJob,
  type NotificationQueue,
} from './notification-queue';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const POLICY = { attempts: 5, backoffMs: 60 };

function job(id: string): NotificationJob {
  return {
    id,
    channel: 'webpush',
    username: 'admin',
    message: { title: 't', body: 'b', caseId: null, url: '/', icon: '/icons/icon-192.png' },
    eventPosition: null,
  };
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same contract for both drivers: the in-process driver is a driver swap, not another queue. */
describe.each([
  [
    'in-process',
    () => ({ queue: new InProcessDriver(POLICY) as NotificationQueue, cleanup: async () => {} }),
  ],
  [
    'bullmq (real Redis)',
    () => {
      const prefix = `af-test-${randomBytes(4).toString('hex')}`;
      const queue = new BullMqDriver({
        redisUrl: REDIS_URL,
        prefix,
        policy: POLICY,
        lockMs: 5000,
        onError: () => undefined,
      });
      return {
        queue: queue as NotificationQueue,
        async cleanup() {
          const redis = new Redis(REDIS_URL);
          try {
            const keys = await redis.keys(`${prefix}:*`);
            if (keys.length) await redis.del(...keys);
          } finally {
            redis.disconnect();
          }
        },
      };
    },
  ],
])('%s driver', (_name, make) => {
  let queue: NotificationQueue;
  let cleanup: () => Promise<void>;
  let runs: { id: string; context: JobContext; at: number }[];

  beforeEach(() => {
    ({ queue, cleanup } = make());
    runs = [];
  });
  afterEach(async () => {
    await queue.close();
    await cleanup();
  });

  it('runs a job once, and ignores its id when added again before or after it ran', async () => {
    queue.process(
      async (received, context) => {
        runs.push({ id: received.id, context, at: Date.now() });
      },
      { concurrency: 4 },
    );
    await queue.enqueue([job('a'), job('b'), job('a')]);
    await queue.enqueue([job('b')]);
    await until(() => runs.length >= 2);
    await queue.enqueue([job('a'), job('b')]);
    await sleep(300);
    expect(runs.map((run) => run.id).sort()).toEqual(['a', 'b']);
    expect(runs[0].context).toEqual({ attempt: 1, maxAttempts: 5 });
  });

  it('retries a failing job with exponential backoff until it succeeds', async () => {
    queue.process(
      async (received, context) => {
        runs.push({ id: received.id, context, at: Date.now() });
        if (context.attempt < 4) throw new Error(`push service answered 500 (attempt ${context.attempt})`);
      },
      { concurrency: 1 },
    );
    await queue.enqueue([job('flaky')]);
    await until(() => runs.length === 4);
    await sleep(POLICY.backoffMs * 10);
    expect(runs.map((run) => run.context.attempt)).toEqual([1, 2, 3, 4]);
    const gaps = runs.slice(1).map((run, index) => run.at - runs[index].at);
    // 60, 120, 240 ms: each wait at least the policy's delay, and growing.
    gaps.forEach((gap, index) => expect(gap).toBeGreaterThanOrEqual(POLICY.backoffMs * 2 ** index - 5));
    expect(gaps[2]).toBeGreaterThan(gaps[0]);
  });

  it('gives up after 5 attempts, and at once on a permanent error', async () => {
    queue.process(
      async (received, context) => {
        runs.push({ id: received.id, context, at: Date.now() });
        if (received.id === 'gone') throw new PermanentJobError('410 Gone');
        throw new Error('always 500');
      },
      { concurrency: 2 },
    );
    await queue.enqueue([job('always'), job('gone')]);
    await until(() => runs.filter((run) => run.id === 'always').length === 5, 10000);
    await sleep(POLICY.backoffMs * 20);
    expect(runs.filter((run) => run.id === 'always')).toHaveLength(5);
    expect(runs.filter((run) => run.id === 'gone')).toHaveLength(1);
  });

  it('runs up to `concurrency` jobs at once', async () => {
    let running = 0;
    let most = 0;
    queue.process(
      async (received, context) => {
        running++;
        most = Math.max(most, running);
        await sleep(50);
        running--;
        runs.push({ id: received.id, context, at: Date.now() });
      },
      { concurrency: 3 },
    );
    await queue.enqueue(Array.from({ length: 9 }, (_, index) => job(`j${index}`)));
    await until(() => runs.length === 9);
    expect(most).toBe(3);
  });
});
