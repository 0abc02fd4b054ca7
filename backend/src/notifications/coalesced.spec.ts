import { Coalesced, inKeyRounds } from './coalesced';

describe('Coalesced', () => {
  it('runs calls made together as one batch and answers each caller with its own result', async () => {
    const batches: number[][] = [];
    const doubled = new Coalesced<number, number>(async (items) => {
      batches.push(items);
      return items.map((item) => item * 2);
    });
    expect(await Promise.all([1, 2, 3].map((n) => doubled.call(n)))).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('collects the calls made while a batch runs into the next one', async () => {
    const batches: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const echo = new Coalesced<string, string>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await gate;
      return items;
    });
    const first = echo.call('a');
    await new Promise((resolve) => setImmediate(resolve));
    const later = [echo.call('b'), echo.call('c')];
    release();
    expect(await Promise.all([first, ...later])).toEqual(['a', 'b', 'c']);
    expect(batches).toEqual([['a'], ['b', 'c']]);
  });

  it('gives every caller of a failed batch the error, and goes on with the next', async () => {
    let fail = true;
    const flaky = new Coalesced<number, number>(async (items) => {
      if (fail) {
        fail = false;
        throw new Error('database unavailable');
      }
      return items;
    });
    const failed = await Promise.allSettled([flaky.call(1), flaky.call(2)]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await flaky.call(3)).toBe(3);
  });
});

describe('inKeyRounds', () => {
  it('never puts one key twice in a statement, and keeps the order of calls per key', async () => {
    const statements: string[][] = [];
    const results = await inKeyRounds(
      ['job1:begin', 'job2:begin', 'job1:finish', 'job1:again'],
      (item) => item.split(':')[0],
      async (items) => {
        statements.push(items);
        return items.map((item) => item.toUpperCase());
      },
    );
    expect(statements).toEqual([['job1:begin', 'job2:begin'], ['job1:finish'], ['job1:again']]);
    expect(results).toEqual(['JOB1:BEGIN', 'JOB2:BEGIN', 'JOB1:FINISH', 'JOB1:AGAIN']);
  });
});
