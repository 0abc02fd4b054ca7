import { randomBytes } from 'node:crypto';
import { createEventStore } from '../backend/src/event-store/event-store.module';
import type { Checkpoint, EventStore, RecordedEvent } from '../backend/src/event-store/event-store';
import { useTestDataSource } from './support/data-source';

/** The rebuild's batch reader gives exactly what readAll gives, however large the documents. */
describe('readAllInOneDocument', () => {
  const database = useTestDataSource();
  let store: EventStore;

  beforeAll(() => {
    store = createEventStore(database.dataSource);
  });

  async function readEverything(
    read: (after: Checkpoint | null) => Promise<{ events: RecordedEvent[]; more: boolean }>,
  ): Promise<{ events: RecordedEvent[]; batches: number[] }> {
    const events: RecordedEvent[] = [];
    const batches: number[] = [];
    let after: Checkpoint | null = null;
    for (let more = true; more;) {
      const batch = await read(after);
      if (!batch.events.length) break;
      events.push(...batch.events);
      batches.push(batch.events.length);
      const last = batch.events[batch.events.length - 1];
      after = { transactionId: last.transactionId, position: last.position };
      more = batch.more;
    }
    return { events, batches };
  }

  it('splits batches of large documents by size and reads the same events as readAll', async () => {
    // 48 notes of 1 MB of incompressible text: more than one batch's worth of stored data.
    for (let i = 0; i < 48; i++) {
      await store.append(
        'case-CA-2020-10001',
        i,
        [{ type: 'NoteAdded', data: { text: randomBytes(768 * 1024).toString('base64') } }],
        { actor: { username: 'tech', role: 'Technician' }, correlationId: `big-${i}` },
      );
    }
    await store.append('user-someone', 0, [{ type: 'UserCreated', data: { n: 'quoted "name" \\ and ü' } }], {
      actor: null,
      correlationId: 'small',
    });

    const fast = await readEverything((after) => store.readAllInOneDocument(after, 10_000));
    const plain = await readEverything(async (after) => {
      const events = await store.readAll(after, 10_000);
      return { events, more: events.length === 10_000 };
    });
    expect(fast.batches.length).toBeGreaterThan(1);
    expect(fast.events.length).toBe(49);
    expect(fast.events).toEqual(plain.events);
    expect(await store.readAllInOneDocument(null, 1)).toMatchObject({ more: true });

    // keyAfter: where a batch of n events would end, for the read after it to start early.
    const keyOf = (event: RecordedEvent) => ({
      transactionId: event.transactionId,
      position: event.position,
    });
    const from = keyOf(plain.events[4]);
    expect(await store.keyAfter(from, 10)).toEqual(keyOf(plain.events[14]));
    expect(await store.keyAfter(null, 49)).toEqual(keyOf(plain.events[48]));
    expect(await store.keyAfter(null, 50)).toBeNull();
  });
});
