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

  it('after a failed batch tries each item alone, so one bad item fails only its own caller', async () => {
    const statements: number[][] = [];
    const strict = new Coalesced<number, number>(async (items) => {
      statements.push(items);
      if (items.includes(2)) throw new Error('invalid input for 2');
      return items;
    });
    const outcomes = await Promise.allSettled([1, 2, 3].map((n) => strict.call(n)));
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('invalid input for 2') },
      { status: 'fulfilled', value: 3 },
    ]);
    expect(statements).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(await strict.call(4)).toBe(4);
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
