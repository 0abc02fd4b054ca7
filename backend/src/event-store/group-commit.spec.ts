import { useTestDataSource } from '../../../test/support/data-source.js';
import {
  EventStore,
  WrongExpectedVersionError,
  type EventMetadata,
  type RecordedEvent,
} from './event-store.js';
import { GroupCommit, type AppendFlush } from './group-commit.js';
import type { ReadModel } from './read-model.js';

const metadata: EventMetadata = { actor: { username: 'tech', role: 'Technician' }, correlationId: 'corr-g' };
const note = (text: string) => ({ type: 'NoteAdded', data: { text } });
/** A read model of one row per stream, with the position of its last event. */
const G_ROWS: ReadModel = {
  table: 'g_rows',
  columns: [
    { name: 'stream', type: 'text' },
    { name: 'last', type: 'bigint', position: true },
  ],
  key: ['stream'],
};

describe('group commit (EventStore.appendStreams, GroupCommit)', () => {
  const database = useTestDataSource(10);
  let store: EventStore;

  beforeAll(async () => {
    store = new EventStore(database.dataSource);
    await database.dataSource.query('CREATE TABLE g_rows (stream text PRIMARY KEY, last bigint)');
  });

  const streamOf = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.data.text);

  it('appends to many streams in one statement, a stale one failing alone', async () => {
    await store.append('g-stale', 0, [note('first')], metadata);
    const results = await store.appendStreams([
      { streamId: 'g-new', expectedVersion: 0, events: [note('a'), note('b')], metadata },
      { streamId: 'g-stale', expectedVersion: 0, events: [note('late')], metadata },
      { streamId: 'g-other', expectedVersion: 0, events: [note('c')], metadata },
    ]);
    expect(results[1]).toBeInstanceOf(WrongExpectedVersionError);
    const [created, , other] = results as RecordedEvent[][];
    expect(created.map((e) => e.version)).toEqual([1, 2]);
    expect(other[0].transactionId).toBe(created[0].transactionId);
    expect(await streamOf('g-stale')).toEqual(['first']);
    expect(await streamOf('g-new')).toEqual(['a', 'b']);
  });

  it('writes a stream’s read-model rows only when its events were appended', async () => {
    await store.append('g-row-stale', 0, [note('x')], metadata);
    const rows = (stream: string) => [{ model: G_ROWS, rows: [[stream, null]] }];
    const results = await store.appendStreams([
      {
        streamId: 'g-row',
        expectedVersion: 0,
        events: [note('1'), note('2')],
        metadata,
        rows: rows('g-row'),
      },
      {
        streamId: 'g-row-stale',
        expectedVersion: 0,
        events: [note('y')],
        metadata,
        rows: rows('stale'),
      },
    ]);
    const written = results[0] as RecordedEvent[];
    expect(await database.dataSource.query('SELECT stream, last::text FROM g_rows')).toEqual([
      { stream: 'g-row', last: written[1].position },
    ]);
  });

  it('loses only the stream a concurrent, uncommitted writer takes, and none of a multi-event append', async () => {
    const first = database.dataSource.createQueryRunner();
    await first.connect();
    try {
      await first.startTransaction();
      await store.append('g-race', 0, [note('theirs')], metadata, first);
      const ours = store.appendStreams([
        { streamId: 'g-race', expectedVersion: 0, events: [note('ours 1'), note('ours 2')], metadata },
        { streamId: 'g-bystander', expectedVersion: 0, events: [note('bystander')], metadata },
      ]);
      // Ours saw an empty stream and now waits on the other writer's key.
      for (let waiting = 0; waiting !== 1;) {
        [{ waiting }] = await database.dataSource.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
      }
      await first.commitTransaction();
      const [race, bystander] = await ours;
      expect(race).toBeInstanceOf(WrongExpectedVersionError);
      expect(bystander).toHaveLength(1);
    } finally {
      if (first.isTransactionActive) await first.rollbackTransaction();
      await first.release();
    }
    expect(await streamOf('g-race')).toEqual(['theirs']);
    expect(await streamOf('g-bystander')).toEqual(['bystander']);
  });

  it('sends appends that arrive during a flush together, each with its own answer', async () => {
    const flushes: RecordedEvent[][] = [];
    const reports: AppendFlush[] = [];
    const commit = new GroupCommit(
      store,
      (events) => flushes.push(events),
      (report) => reports.push(report),
    );
    await store.append('g-batch-stale', 0, [note('there')], metadata);
    const appends = Array.from({ length: 20 }, (_, i) =>
      commit.append({ streamId: `g-batch-${i}`, expectedVersion: 0, events: [note(`n${i}`)], metadata }),
    );
    const stale = commit.append({
      streamId: 'g-batch-stale',
      expectedVersion: 0,
      events: [note('late')],
      metadata,
    });
    const results = await Promise.allSettled([...appends, stale]);
    expect(results.slice(0, 20).every((r) => r.status === 'fulfilled')).toBe(true);
    expect(results[20]).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedVersionError) });
    // The first append went alone, at once; the others waited for it and went out as one.
    expect(flushes.map((events) => events.length)).toEqual([1, 19]);
    expect(new Set(flushes[1].map((e) => e.transactionId)).size).toBe(1);
    // Each flush says what it carried (the stale append too) and how long each append waited:
    // the first not at all, the others for the whole first flush.
    expect(reports.map(({ appends, waitedSeconds }) => [appends, waitedSeconds.length])).toEqual([
      [1, 1],
      [20, 20],
    ]);
    expect(reports.every(({ seconds }) => seconds > 0)).toBe(true);
    const [lone] = reports[0].waitedSeconds;
    expect(reports[1].waitedSeconds.every((waited) => waited > lone)).toBe(true);
    for (let i = 0; i < 20; i++) expect(await streamOf(`g-batch-${i}`)).toEqual([`n${i}`]);
    expect(await streamOf('g-batch-stale')).toEqual(['there']);
  });

  it('fails only the append whose statement part fails, writing the others', async () => {
    const commit = new GroupCommit(store, () => undefined);
    const good = (i: number) =>
      commit.append({ streamId: `g-fault-${i}`, expectedVersion: 0, events: [note(`ok${i}`)], metadata });
    const results = await Promise.allSettled([
      good(0),
      good(1),
      commit.append({
        streamId: 'g-fault-bad',
        expectedVersion: 0,
        events: [note('bad')],
        metadata,
        // A key of null: the statement fails (not-null violation).
        rows: [{ model: G_ROWS, rows: [[null, null]] }],
      }),
      good(2),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(await streamOf('g-fault-bad')).toEqual([]);
    expect(await streamOf('g-fault-2')).toEqual(['ok2']);
  });
});
