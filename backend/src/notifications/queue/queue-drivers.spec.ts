import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { BullMqDriver } from './bullmq.driver';
import { InProcessDriver } from './in-process.driver';
import { clearQueuePrefix } from '../../../../test/support/helpers.js';
import {
  NOTIFICATION_QUEUE_NAME,
  PermanentJobError,
  type JobContext,
  type NotificationJob,
  type NotificationQueue,
  type RetryPolicy,
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

/** A BullMQ queue on the real Redis under a prefix of its own (cleared with clearQueuePrefix). */
function bullmqQueue(policy: RetryPolicy): { queue: BullMqDriver; prefix: string } {
  const prefix = `af-test-${randomBytes(4).toString('hex')}`;
  const queue = new BullMqDriver({
    redisUrl: REDIS_URL,
    prefix,
    policy,
    lockMs: 5000,
    onError: () => undefined,
  });
  return { queue, prefix };
}

/** The same contract for both drivers: the in-process driver is a driver swap, not another queue. */
describe.each([
  [
    'in-process',
    () => ({ queue: new InProcessDriver(POLICY) as NotificationQueue, cleanup: async () => {} }),
  ],
  [
    'bullmq (real Redis)',
    () => {
      const { queue, prefix } = bullmqQueue(POLICY);
      return { queue: queue as NotificationQueue, cleanup: () => clearQueuePrefix(REDIS_URL, prefix) };
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

  it("erases the messages of the jobs it holds (a case's erasure), and no other", async () => {
    const named = (id: string, caseId: string): NotificationJob => ({
      ...job(id),
      message: {
        ...job(id).message,
        title: 'Case completed',
        body: `${caseId} for Ada Example is complete.`,
        caseId,
      },
    });
    // Waiting: added before any worker runs.
    await queue.enqueue([named('erased', 'CA-1'), named('kept', 'CA-2')]);
    expect(await queue.eraseMessages(['erased', 'never-added'], '[erased]')).toBe(1);
    const received: NotificationJob[] = [];
    queue.process(
      async (given, context) => {
        received.push(given);
        runs.push({ id: given.id, context, at: Date.now() });
      },
      { concurrency: 2 },
    );
    await until(() => received.length === 2);
    expect(Object.fromEntries(received.map((given) => [given.id, given.message]))).toEqual({
      erased: { ...named('erased', 'CA-1').message, title: '[erased]', body: '[erased]' },
      kept: named('kept', 'CA-2').message,
    });
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

describe('bullmq driver: finished jobs, kept in Redis for days', () => {
  it('erases their messages too', async () => {
    const { queue, prefix } = bullmqQueue({ attempts: 1, backoffMs: 60 });
    const redis = new Redis(REDIS_URL);
    const stored = async (id: string) =>
      JSON.parse(
        (await redis.hget(`${prefix}:${NOTIFICATION_QUEUE_NAME}:${id}`, 'data'))!,
      ) as NotificationJob;
    try {
      const named = (id: string): NotificationJob => ({
        ...job(id),
        message: { ...job(id).message, title: 'Case on hold', body: 'CA-7 for Ada Example was put on hold.' },
      });
      let finished = 0;
      queue.process(
        async (given) => {
          finished++;
          if (given.id === 'failed') throw new PermanentJobError('410 Gone');
        },
        { concurrency: 2 },
      );
      await queue.enqueue([named('completed'), named('failed'), named('other')]);
      await until(() => finished === 3);
      // The worker records the outcome after the handler returns.
      await sleep(300);
      expect((await stored('completed')).message.body).toContain('Ada Example');
      expect(await queue.eraseMessages(['completed', 'failed'], '[erased]')).toBe(2);
      for (const id of ['completed', 'failed'])
        expect((await stored(id)).message).toEqual({
          ...named(id).message,
          title: '[erased]',
          body: '[erased]',
        });
      expect((await stored('other')).message).toEqual(named('other').message);
    } finally {
      await queue.close();
      redis.disconnect();
      await clearQueuePrefix(REDIS_URL, prefix);
    }
  });
});
