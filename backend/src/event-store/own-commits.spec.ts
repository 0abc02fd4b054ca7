import { DataSource } from 'typeorm';
import { useTestDataSource } from '../../../test/support/data-source.js';
import { untilPasses } from '../../../test/support/helpers.js';
import { DOMAIN_EVENT_CODEC } from './event-store.module.js';
import {
  EventStore,
  withTransaction,
  type Checkpoint,
  type EventCodec,
  type EventMetadata,
  type RecordedEvent,
} from './event-store.js';
import { GroupCommit } from './group-commit.js';
import { OwnCommits } from './own-commits.js';

const metadata: EventMetadata = { actor: { username: 'tech', role: 'Technician' }, correlationId: 'corr-o' };
const note = (text: string) => ({ type: 'NoteAdded', data: { text, at: new Date(0), none: undefined } });

/** Upcasts NoteAdded v1 ({ text }) to v2 ({ body }): own events must be upcast as read ones are. */
const CODEC: EventCodec = {
  schemaVersionOf: (type) => (type === 'NoteAdded' ? 2 : 1),
  upcast: (type, version, data) =>
    type === 'NoteAdded' && version === 1 ? { body: (data as { text: string }).text } : data,
};

interface Query {
  sql: string;
  params: unknown[] | undefined;
  rows: Record<string, unknown>[];
}

/** Records every query `dataSource.query` runs, with what it returned. */
function recordQueries(dataSource: DataSource): { queries: Query[]; restore: () => void } {
  const queries: Query[] = [];
  const original = dataSource.query.bind(dataSource);
  const spy = jest.spyOn(dataSource, 'query').mockImplementation((async (sql: string, params?: unknown[]) => {
    const rows = await original(sql, params);
    queries.push({ sql, params, rows });
    return rows;
  }) as typeof dataSource.query);
  return { queries, restore: () => spy.mockRestore() };
}

/** Reads the whole readable log after `from` in pages, as a tailer does. */
async function readToEnd(
  store: EventStore,
  from: Checkpoint | null,
  ownFromMemory: boolean,
  pageSize = 7,
): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  let after = from;
  for (;;) {
    const page = await store.readAll(after, pageSize, { ownFromMemory });
    all.push(...page);
    if (page.length < pageSize) return all;
    after = page[page.length - 1];
  }
}

/** A store whose reader wants its own commits, as the live tailer does while a stream is open. */
function keeping(store: EventStore): EventStore {
  store.ownCommits.keepWhile(() => true);
  return store;
}

async function end(dataSource: DataSource): Promise<Checkpoint | null> {
  const [row]: Checkpoint[] = await dataSource.query(
    `SELECT transaction_id::text AS "transactionId", global_position::text AS position FROM events
      ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`,
  );
  return row ?? null;
}

describe('own commits (EventStore.readAll with ownFromMemory)', () => {
  const database = useTestDataSource(6);
  let other: DataSource;

  beforeAll(async () => {
    other = await new DataSource({ type: 'postgres', url: database.url, poolSize: 6 }).initialize();
  });

  afterAll(async () => {
    await other?.destroy();
  });

  it('reads its own committed events without their bodies and gives them as a read of the row does', async () => {
    const store = keeping(new EventStore(database.dataSource, CODEC));
    const start = await end(database.dataSource);
    // An old schema version (upcast on read), and a recordedAt of the caller's with microseconds.
    await store.appendStreams([
      {
        streamId: 'own-a',
        expectedVersion: 0,
        events: [{ type: 'NoteAdded', data: { text: 'old' }, schemaVersion: 1 }, note('new')],
        metadata: { ...metadata, causationId: undefined },
        recordedAt: '2025-03-04T05:06:07.123456+02:00',
      },
      { streamId: 'own-b', expectedVersion: 0, events: [{ type: 'Opened', data: [1, 'two'] }], metadata },
    ]);
    expect(store.ownCommits.size).toBe(3);

    const { queries, restore } = recordQueries(database.dataSource);
    let fromMemory: RecordedEvent[] = [];
    try {
      await untilPasses(async () => {
        queries.length = 0;
        fromMemory = await store.readAll(start, 100, { ownFromMemory: true });
        expect(fromMemory).toHaveLength(3);
      });
    } finally {
      restore();
    }
    // The query was told the three keys, and brought no data nor metadata for them.
    const [read] = queries;
    const [positions, transactions] = read.params!.slice(3) as string[][];
    expect(positions.map((position, i) => `${transactions[i]}:${position}`).sort()).toEqual(
      fromMemory.map((event) => `${event.transactionId}:${event.position}`).sort(),
    );
    expect(read.rows).toHaveLength(3);
    for (const row of read.rows) expect([row.data, row.metadata]).toEqual([null, null]);

    // What a plain read of the same rows gives, to the last field (toStrictEqual: no stray undefined).
    const stored = await store.readAll(start, 100);
    expect(fromMemory).toStrictEqual(stored);
    const [old, fresh] = fromMemory.filter((event) => event.streamId === 'own-a');
    expect(old.data).toEqual({ body: 'old' });
    expect(old.schemaVersion).toBe(2);
    expect(old.recordedAt).toBe('2025-03-04T03:06:07.123Z');
    expect(fresh.data).toEqual({ text: 'new', at: '1970-01-01T00:00:00.000Z' });
    // Each read hands out objects of its own: a reader that changes one changes no later read.
    fresh.data.text = 'changed';
    const again = await store.readAll(start, 100, { ownFromMemory: true });
    expect(again.find((event) => event.position === fresh.position)!.data.text).toBe('new');
  });

  it('keeps nothing of an append in a transaction that rolls back, nor of a statement that fails', async () => {
    const store = keeping(new EventStore(database.dataSource));
    const appends = new GroupCommit(store, () => undefined);
    const before = store.ownCommits.size;
    await expect(
      withTransaction(database.dataSource, async (runner) => {
        await store.append('own-rolled-back', 0, [note('never')], metadata, runner);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // jsonb refuses \u0000: the flush's statement fails, nothing is committed.
    await expect(
      appends.append({
        streamId: 'own-failed',
        expectedVersion: 0,
        events: [{ type: 'NoteAdded', data: { text: 'nul \u0000' } }],
        metadata,
      }),
    ).rejects.toThrow();
    expect(store.ownCommits.size).toBe(before);

    // A transaction that commits is read, with its body, like another process's write.
    const start = await end(database.dataSource);
    await withTransaction(database.dataSource, (runner) =>
      store.append('own-in-transaction', 0, [note('committed')], metadata, runner),
    );
    await appends.append({
      streamId: 'own-flushed',
      expectedVersion: 0,
      events: [note('flushed')],
      metadata,
    });
    expect(store.ownCommits.size).toBe(before + 1);
    let events: RecordedEvent[] = [];
    await untilPasses(async () => {
      events = await store.readAll(start, 100, { ownFromMemory: true });
      expect(events).toHaveLength(2);
    });
    expect(events.map((event) => [event.streamId, event.data.text])).toEqual([
      ['own-in-transaction', 'committed'],
      ['own-flushed', 'flushed'],
    ]);
    expect(await store.readStream('own-rolled-back')).toEqual([]);
    expect(await store.readStream('own-failed')).toEqual([]);
  });

  it('two processes writing interleaved: each reader gets every event of both, once, in commit-safe order', async () => {
    const mine = keeping(new EventStore(database.dataSource, DOMAIN_EVENT_CODEC));
    const theirs = keeping(new EventStore(other, DOMAIN_EVENT_CODEC));
    const start = await end(database.dataSource);
    const flushes = [new GroupCommit(mine, () => undefined), new GroupCommit(theirs, () => undefined)];
    // Each writer appends to its own streams while the other does, many flushes each.
    await Promise.all(
      flushes.map((appends, writer) =>
        Promise.all(
          Array.from({ length: 8 }, (_, stream) =>
            (async () => {
              for (let version = 0; version < 6; version++)
                await appends.append({
                  streamId: `own-w${writer}-s${stream}`,
                  expectedVersion: version,
                  events: [note(`w${writer} s${stream} v${version + 1}`)],
                  metadata,
                });
            })(),
          ),
        ),
      ),
    );
    let plain: RecordedEvent[] = [];
    await untilPasses(async () => {
      plain = await readToEnd(mine, start, false, 1000);
      expect(plain).toHaveLength(96);
    });
    const { queries, restore } = recordQueries(database.dataSource);
    let fromMine: RecordedEvent[];
    try {
      fromMine = await readToEnd(mine, start, true);
    } finally {
      restore();
    }
    const fromTheirs = await readToEnd(theirs, start, true);
    expect(fromMine).toStrictEqual(plain);
    expect(fromTheirs).toStrictEqual(plain);
    expect(new Set(plain.map((event) => event.position)).size).toBe(96);
    // Half the events came from memory: the reads brought bodies only for the other writer's.
    const bodies = queries.flatMap((query) => query.rows).filter((row) => row.data !== null);
    expect(bodies).toHaveLength(48);
    expect(bodies.every((row) => String(row.stream_id).startsWith('own-w1-'))).toBe(true);
    const withoutBodies = JSON.stringify(queries.flatMap((query) => query.rows)).length;
    const readPlain = recordQueries(database.dataSource);
    try {
      await readToEnd(mine, start, false);
    } finally {
      readPlain.restore();
    }
    const withBodies = JSON.stringify(readPlain.queries.flatMap((query) => query.rows)).length;
    expect(withoutBodies).toBeLessThan(withBodies);
    console.log(
      `96 events, half of them this process's own: rows read as ${withoutBodies} characters of JSON with own bodies from memory, ${withBodies} without`,
    );
  });

  it('a read that starts while an own append is being answered waits for it and takes it from memory', async () => {
    const store = keeping(new EventStore(database.dataSource));
    const start = await end(database.dataSource);
    const { queries, restore } = recordQueries(database.dataSource);
    try {
      // The read is asked for before the append has answered (as after a NOTIFY that overtook it).
      const appending = store.appendStreams([
        { streamId: 'own-racing', expectedVersion: 0, events: [note('raced')], metadata },
      ]);
      const reading = store.readAll(start, 100, { ownFromMemory: true });
      const [[appended]] = (await appending) as RecordedEvent[][];
      await reading;
      const read = queries.find((query) => query.sql.includes('THEN NULL ELSE data END'));
      expect(read?.params!.slice(3)).toEqual([[appended.position], [appended.transactionId]]);
    } finally {
      restore();
    }
  });

  it('keeps nothing while no reader wants its commits, and forgets what it kept once none does', async () => {
    const store = new EventStore(database.dataSource);
    const commit = new GroupCommit(store, () => undefined);
    let wanted = false;
    store.ownCommits.keepWhile(() => wanted);
    // Three notes, the reader wanting commits only for the second; how many are kept after each.
    const kept: number[] = [];
    for (const [version, want] of [false, true, false].entries()) {
      wanted = want;
      const events = [note(`note ${version + 1}`)];
      await commit.append({ streamId: 'case-own-unwanted', expectedVersion: version, events, metadata });
      kept.push(store.ownCommits.size);
    }
    expect(kept).toEqual([0, 1, 0]);
  });

  it('is bounded: the oldest events go first, and an erased stream is forgotten', () => {
    const commits = new OwnCommits(3, 1_000);
    const commit = (position: number, streamId = 's', data = '{}') => ({
      position: String(position),
      transactionId: String(100 + position),
      transaction: BigInt(100 + position),
      streamId,
      version: position,
      type: 'T',
      schemaVersion: 1,
      data,
      metadata: '{}',
      recordedAt: '2025-01-01T00:00:00.000Z',
    });
    commits.add([commit(1), commit(2), commit(3), commit(4)]);
    expect([...commits.after(null, 10).keys()]).toEqual(['2', '3', '4']);
    // After a key, and only the first `limit` in commit-safe order.
    expect([...commits.after({ transactionId: '102', position: '2' }, 10).keys()]).toEqual(['3', '4']);
    expect([...commits.after(null, 2).keys()]).toEqual(['2', '3']);
    commits.add([commit(5, 'erased')]);
    commits.forgetStream('erased');
    expect([...commits.after(null, 10).keys()]).toEqual(['3', '4']);
    // Past the characters allowed, too.
    commits.add([commit(6, 's', 'x'.repeat(995))]);
    expect([...commits.after(null, 10).keys()]).toEqual(['6']);
  });

  it('forgets what the reader has read: the events at or before its checkpoint', () => {
    const commits = new OwnCommits(100, 100_000);
    // Transaction ids are taken at the first write, not at the commit: 12 commits before 11.
    const commit = (position: number, transaction: number) => ({
      position: String(position),
      transactionId: String(transaction),
      transaction: BigInt(transaction),
      streamId: 's',
      version: position,
      type: 'T',
      schemaVersion: 1,
      data: '{}',
      metadata: '{}',
      recordedAt: '2025-01-01T00:00:00.000Z',
    });
    commits.add([commit(1, 10), commit(2, 10), commit(4, 12), commit(3, 11), commit(5, 13)]);
    commits.forgetThrough(null);
    expect(commits.size).toBe(5);
    commits.forgetThrough({ transactionId: '10', position: '1' });
    expect([...commits.after(null, 10).keys()].sort()).toEqual(['2', '3', '4', '5']);
    commits.forgetThrough({ transactionId: '11', position: '3' });
    expect([...commits.after(null, 10).keys()].sort()).toEqual(['4', '5']);
    commits.forgetThrough({ transactionId: '13', position: '5' });
    expect(commits.size).toBe(0);
  });
});
