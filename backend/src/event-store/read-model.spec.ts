import { useTestDataSource } from '../../../test/support/data-source.js';
import { EventStore, type EventMetadata, type RecordedEvent, type StreamAppend } from './event-store.js';
import { writeRows, type ReadModel } from './read-model.js';

const metadata: EventMetadata = { actor: { username: 'tech', role: 'Technician' }, correlationId: 'corr-r' };

/** A read model with a document, a position and a conflict rule that keeps a column's stored value. */
const R_ROWS: ReadModel = {
  table: 'r_rows',
  columns: [
    { name: 'id', type: 'text' },
    { name: 'doc', type: 'jsonb' },
    { name: 'tags', type: 'int[]' },
    { name: 'at', type: 'bigint', position: true },
  ],
  key: ['id'],
  update: `doc = CASE WHEN jsonb_typeof(excluded.doc) = 'null' THEN t.doc ELSE excluded.doc END, tags = excluded.tags, at = excluded.at`,
};

describe('read models written with the append (read-model.ts)', () => {
  const database = useTestDataSource();
  let store: EventStore;

  beforeAll(async () => {
    store = new EventStore(database.dataSource);
    await database.dataSource.query(
      'CREATE TABLE r_rows (id text PRIMARY KEY, doc jsonb NOT NULL, tags int[], at bigint)',
    );
  });

  const append = (id: string, expectedVersion: number, doc: unknown, events = 1): StreamAppend => ({
    streamId: `r-${id}`,
    expectedVersion,
    events: Array.from({ length: events }, (_, n) => ({
      type: 'Noted',
      data: { n, text: 'a "quoted"\\ line' },
    })),
    metadata,
    rows: [{ model: R_ROWS, rows: [[id, JSON.stringify(doc), '{1,2}', null]] }],
  });

  it('sends one statement text however many appends and rows, prepared once per connection', async () => {
    const runner = database.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await store.appendStreams([append('a', 0, { v: 1 })], runner);
      await store.appendStreams(
        [append('b', 0, { v: 1 }, 3), append('c', 0, { v: 1 }), append('a', 1, null)],
        runner,
      );
      const prepared: { statement: string }[] = await runner.query(
        `SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%INSERT INTO events%'`,
      );
      expect(prepared).toHaveLength(1);
    } finally {
      await runner.release();
    }
    const rows: { id: string; doc: unknown; tags: number[]; at: string }[] = await database.dataSource.query(
      'SELECT id, doc, tags, at::text FROM r_rows ORDER BY id',
    );
    const last = async (id: string) => (await store.readStream(`r-${id}`)).at(-1)!.position;
    // JSON null keeps the stored document; the position is the stream's last event's.
    expect(rows).toEqual([
      { id: 'a', doc: { v: 1 }, tags: [1, 2], at: await last('a') },
      { id: 'b', doc: { v: 1 }, tags: [1, 2], at: await last('b') },
      { id: 'c', doc: { v: 1 }, tags: [1, 2], at: await last('c') },
    ]);
  });

  it('answers the events as stored, from the append and the keys it brought back', async () => {
    const [answered] = (await store.appendStreams([append('d', 0, { v: 2 }, 2)])) as RecordedEvent[][];
    const stored = await store.readStream('r-d');
    expect(answered).toEqual(stored);
    const [late] = (await store.appendStreams([
      { ...append('d', 2, { v: 3 }), recordedAt: '2026-03-01T10:00:00+01:00' },
    ])) as RecordedEvent[][];
    expect(late[0].recordedAt).toBe('2026-03-01T09:00:00.000Z');
    expect(late).toEqual((await store.readStream('r-d')).slice(2));
  });

  it('writes rows in bulk with the same definition, given their positions', async () => {
    await writeRows(database.dataSource, R_ROWS, [
      ['e', '{"v":5}', '{3}', '7'],
      ['a', '{"v":6}', null, '8'],
    ]);
    expect(
      await database.dataSource.query(
        `SELECT id, doc, tags, at::text FROM r_rows WHERE id IN ('a', 'e') ORDER BY id`,
      ),
    ).toEqual([
      { id: 'a', doc: { v: 6 }, tags: null, at: '8' },
      { id: 'e', doc: { v: 5 }, tags: [3], at: '7' },
    ]);
  });
});
