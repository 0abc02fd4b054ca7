import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { useTestDataSource } from '../../../test/support/data-source.js';
import { ScheduledJob } from './scheduled-job.js';

/** A promise the test resolves when it wants: holds a run in progress. */
function gate(): { open: () => void; passed: Promise<void> } {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { open, passed };
}

describe('ScheduledJob', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('runs at start when asked, then every interval, and not after stop', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const job = new ScheduledJob(
      { name: 'T', what: 't', intervalMs: 1000, runAtStart: true },
      async () => ++runs,
    );
    await job.start();
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    await jest.advanceTimersByTimeAsync(2000);
    expect(runs).toBe(4);
    await job.stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(4);
  });

  it('first runs one interval after start without runAtStart', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const job = new ScheduledJob({ name: 'T', what: 't', intervalMs: 1000 }, async () => ++runs);
    await job.start();
    expect(runs).toBe(0);
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(1);
    await job.stop();
  });

  it('with firstRunAfterMs, runs that long after start, then every interval; stop cancels it', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const job = new ScheduledJob(
      { name: 'T', what: 't', intervalMs: 10_000, firstRunAfterMs: 500 },
      async () => ++runs,
    );
    await job.start();
    await jest.advanceTimersByTimeAsync(499);
    expect(runs).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(9_500);
    expect(runs).toBe(2);
    await job.stop();

    const stopped = new ScheduledJob(
      { name: 'T', what: 't', intervalMs: 10_000, firstRunAfterMs: 500 },
      async () => ++runs,
    );
    await stopped.start();
    await stopped.stop();
    await jest.advanceTimersByTimeAsync(20_000);
    expect(runs).toBe(2);
  });

  it('logs a failed run and runs again at the next tick, never throwing', async () => {
    jest.useFakeTimers();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    let runs = 0;
    const job = new ScheduledJob(
      { name: 'T', what: 'the sweep', intervalMs: 1000, runAtStart: true, report: (n: number) => `ran ${n}` },
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('database restarting');
        return runs;
      },
    );
    await job.start();
    expect(warn).toHaveBeenCalledWith('the sweep failed: database restarting');
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    expect(log).toHaveBeenCalledWith('ran 2');
    await job.stop();
    // A direct run hands its error to the caller.
    const failing = new ScheduledJob({ name: 'T', what: 't', intervalMs: 1000 }, () =>
      Promise.reject(new Error('no')),
    );
    await expect(failing.run()).rejects.toThrow('no');
  });

  it('never overlaps runs of one process, and stop waits for the run in progress', async () => {
    const held = gate();
    let active = 0;
    let most = 0;
    const job = new ScheduledJob({ name: 'T', what: 't', intervalMs: 60_000 }, async (now) => {
      most = Math.max(most, ++active);
      await held.passed;
      active -= 1;
      return now!.getTime();
    });
    const first = job.run(new Date(1));
    const second = job.run(new Date(2));
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    held.open();
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    await stopping;
    expect(stopped).toBe(true);
    expect(most).toBe(1);
  });

  describe('under an advisory lock (PostgreSQL)', () => {
    let one: DataSource;
    let two: DataSource;

    // Declared before the database's hooks because after-all hooks run in the order declared: the
    // second pool goes before the database is dropped under it.
    afterAll(async () => {
      await two?.destroy();
    });
    const database = useTestDataSource(10);

    beforeAll(async () => {
      one = database.dataSource;
      two = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    });

    /** The same job in two processes (two connection pools on one database). */
    function twoProcesses(work: (process: string) => Promise<string>) {
      const lock = (dataSource: DataSource) => ({ dataSource, key: '4711' });
      return [
        new ScheduledJob({ name: 'T', what: 't', intervalMs: 60_000, lock: lock(one) }, () => work('one')),
        new ScheduledJob({ name: 'T', what: 't', intervalMs: 60_000, lock: lock(two) }, () => work('two')),
      ];
    }

    it('runs in one process at a time: the other skips while the lock is held', async () => {
      const held = gate();
      const ran: string[] = [];
      const [first, second] = twoProcesses(async (process) => {
        ran.push(process);
        if (process === 'one') await held.passed;
        return process;
      });
      const running = first.run();
      while (!ran.length) await new Promise((resolve) => setImmediate(resolve));
      expect(await second.run()).toBeNull();
      held.open();
      expect(await running).toBe('one');
      expect(await second.run()).toBe('two');
      expect(ran).toEqual(['one', 'two']);
    });

    it('lets the lock go when a run fails', async () => {
      const [first, second] = twoProcesses(async (process) => {
        if (process === 'one') throw new Error('failed');
        return process;
      });
      await expect(first.run()).rejects.toThrow('failed');
      expect(await second.run()).toBe('two');
      const [{ held }] = await one.query(
        `SELECT count(*)::int AS held FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND objid = 4711
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(held).toBe(0);
    });
  });
});
