import { useTestDataSource } from '../../../test/support/data-source.js';
import { untilPasses } from '../../../test/support/helpers.js';
import type { QueryRunner } from 'typeorm';
import {
  Checkpoint,
  EventCipher,
  EventMetadata,
  EventStore,
  RecordedEvent,
  withTransaction,
  WrongExpectedVersionError,
} from './event-store.js';

const metadata: EventMetadata = {
  actor: { username: 'lab.tech', role: 'technician' },
  correlationId: 'corr-1',
  causationId: 'cause-1',
};

describe('EventStore', () => {
  const database = useTestDataSource(20);
  let store: EventStore;

  beforeAll(() => {
    store = new EventStore(database.dataSource);
  });

  /** Pages through the whole readable log. */
  async function readToEnd(from: Checkpoint | null, pageSize = 500): Promise<RecordedEvent[]> {
    const all: RecordedEvent[] = [];
    let after = from;
    for (;;) {
      const page = await store.readAll(after, pageSize);
      all.push(...page);
      if (page.length < pageSize) return all;
      after = page[page.length - 1];
    }
  }

  /** The last event, once every committed event is readable. */
  async function checkpointAtEnd(): Promise<Checkpoint | null> {
    let events: RecordedEvent[] = [];
    await untilPasses(async () => {
      const [{ total }] = await database.dataSource.query('SELECT count(*)::int AS total FROM events');
      events = await readToEnd(null);
      expect(events).toHaveLength(total);
    });
    return events.length === 0 ? null : events[events.length - 1];
  }

  describe('append and readStream', () => {
    it('numbers events from the expected version and reads them back in order', async () => {
      const first = await store.append(
        'case-1',
        0,
        [
          { type: 'CaseCreated', data: { patient: 'Zoë' } },
          { type: 'StagePlanned', data: { stage: 1 }, schemaVersion: 2 },
        ],
        metadata,
      );
      const second = await store.append('case-1', 2, [{ type: 'StagePrinted', data: [1, 2] }], metadata);

      expect(first.map((e) => e.version)).toEqual([1, 2]);
      expect(first[0]).toMatchObject({
        streamId: 'case-1',
        type: 'CaseCreated',
        schemaVersion: 1,
        data: { patient: 'Zoë' },
        metadata,
      });
      expect(first[1].schemaVersion).toBe(2);
      expect(first[0].transactionId).toBe(first[1].transactionId);
      expect(BigInt(first[1].position)).toBeGreaterThan(BigInt(first[0].position));
      expect(new Date(first[0].recordedAt).toISOString()).toBe(first[0].recordedAt);
      // A top-level array stays JSON, not a PostgreSQL array.
      expect(second[0]).toMatchObject({ version: 3, data: [1, 2] });

      expect(await store.readStream('case-1')).toEqual([...first, ...second]);
      expect(await store.readStream('no-such-stream')).toEqual([]);
    });

    it('stores metadata without an actor or causation id', async () => {
      const [event] = await store.append('case-system', 0, [{ type: 'Imported', data: {} }], {
        actor: null,
        correlationId: 'corr-2',
      });
      expect(event.metadata).toEqual({ actor: null, correlationId: 'corr-2' });
    });
  });

  describe('optimistic concurrency', () => {
    beforeAll(async () => {
      await store.append(
        'case-2',
        0,
        [1, 2, 3].map((stage) => ({ type: 'StagePlanned', data: { stage } })),
        metadata,
      );
    });

    it.each([0, 2, 5])(
      'rejects expected version %i when the stream is at 3, writing nothing',
      async (expected) => {
        const append = store.append('case-2', expected, [{ type: 'Stale', data: {} }], metadata);
        await expect(append).rejects.toThrow(WrongExpectedVersionError);
        await expect(append).rejects.toMatchObject({
          streamId: 'case-2',
          expectedVersion: expected,
          actualVersion: 3,
        });
        expect((await store.readStream('case-2')).map((e) => e.type)).not.toContain('Stale');
      },
    );

    it('lets exactly one of many concurrent appends with the same expected version win', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, writer) =>
          store.append('case-race', 0, [{ type: 'CaseCreated', data: { writer } }], metadata),
        ),
      );
      const winners = results.filter((r) => r.status === 'fulfilled');
      const losers = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(winners).toHaveLength(1);
      expect(losers.every((r) => r.reason instanceof WrongExpectedVersionError)).toBe(true);
      expect(await store.readStream('case-race')).toHaveLength(1);
    });

    it('rejects a writer that collides with a concurrent, still uncommitted append', async () => {
      const first = database.dataSource.createQueryRunner();
      await first.connect();
      try {
        await first.startTransaction();
        await store.append(
          'case-overlap',
          0,
          [{ type: 'CaseCreated', data: { writer: 1 } }],
          metadata,
          first,
        );
        const second = store
          .append('case-overlap', 0, [{ type: 'CaseCreated', data: { writer: 2 } }], metadata)
          .then(
            () => 'appended',
            (err: unknown) => err,
          );
        // The second writer saw an empty stream and now waits on the first one's unique key.
        await untilPasses(async () => {
          const [{ waiting }] = await database.dataSource.query(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          expect(waiting).toBe(1);
        });
        await first.commitTransaction();
        expect(await second).toBeInstanceOf(WrongExpectedVersionError);
      } finally {
        if (first.isTransactionActive) await first.rollbackTransaction();
        await first.release();
      }
      expect((await store.readStream('case-overlap')).map((e) => e.data)).toEqual([{ writer: 1 }]);
    });

    it("rolls back the caller's whole transaction when its append is stale", async () => {
      const attempt = withTransaction(database.dataSource, async (qr) => {
        await store.append('case-tx', 0, [{ type: 'CaseCreated', data: {} }], metadata, qr);
        await store.append('case-2', 1, [{ type: 'Stale', data: {} }], metadata, qr);
      });
      await expect(attempt).rejects.toThrow(WrongExpectedVersionError);
      expect(await store.readStream('case-tx')).toEqual([]);
    });

    it('rejects invalid arguments', async () => {
      await expect(store.append('case-x', -1, [{ type: 'T', data: {} }], metadata)).rejects.toThrow(
        RangeError,
      );
      await expect(store.append('case-x', 0, [], metadata)).rejects.toThrow(RangeError);
    });
  });

  describe('append-only table', () => {
    it.each([
      ['UPDATE', `UPDATE events SET type = 'Changed'`],
      ['DELETE', 'DELETE FROM events'],
      ['TRUNCATE', 'TRUNCATE events'],
    ])('rejects %s', async (_, sql) => {
      const before = await readToEnd(null);
      await expect(database.dataSource.query(sql)).rejects.toThrow('events are append-only');
      expect(await readToEnd(null)).toEqual(before);
    });
  });

  describe('readAll', () => {
    it('hides events past a still-running transaction until it commits, then returns both without a skip', async () => {
      const checkpoint = await checkpointAtEnd();
      const slow = database.dataSource.createQueryRunner();
      await slow.connect();
      try {
        await slow.startTransaction();
        const [slowEvent] = await store.append('case-slow', 0, [{ type: 'Slow', data: {} }], metadata, slow);
        const [fastEvent] = await store.append('case-fast', 0, [{ type: 'Fast', data: {} }], metadata);
        // Committed, and with a higher transaction id and position than the uncommitted one.
        expect(BigInt(fastEvent.position)).toBeGreaterThan(BigInt(slowEvent.position));
        expect(await store.readStream('case-fast')).toHaveLength(1);

        expect(await store.readAll(checkpoint, 100)).toEqual([]);

        await slow.commitTransaction();
        await untilPasses(async () => {
          const events = await store.readAll(checkpoint, 100);
          expect(events.map((e) => e.streamId)).toEqual(['case-slow', 'case-fast']);
        });
      } finally {
        if (slow.isTransactionActive) await slow.rollbackTransaction();
        await slow.release();
      }
    });

    it('returns the log in (transactionId, position) order, page by page', async () => {
      await store.appendMany(
        Array.from({ length: 7 }, (_, i) => ({
          streamId: `case-page-${i}`,
          expectedVersion: 0,
          events: [{ type: 'CaseCreated', data: { i } }],
        })),
        metadata,
      );
      await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          store.append(`case-page-solo-${i}`, 0, [{ type: 'CaseCreated', data: { i } }], metadata),
        ),
      );

      let all: RecordedEvent[] = [];
      await untilPasses(async () => {
        all = await readToEnd(null, 10_000);
        expect(all.filter((e) => e.streamId.startsWith('case-page-'))).toHaveLength(12);
      });
      const paged = await readToEnd(null, 3);
      expect(paged).toEqual(all);

      const keys = all.map((e) => [BigInt(e.transactionId), BigInt(e.position)] as const);
      const sorted = [...keys].sort(([txA, posA], [txB, posB]) =>
        txA !== txB ? (txA < txB ? -1 : 1) : posA < posB ? -1 : posA > posB ? 1 : 0,
      );
      expect(keys).toEqual(sorted);
      expect(new Set(all.map((e) => e.position)).size).toBe(all.length);
    });

    it('orders transaction ids as numbers, not as text', async () => {
      // Long-finished transaction ids, written directly: the app never sets transaction_id.
      await database.dataSource.query(
        `INSERT INTO events (stream_id, stream_version, type, data, transaction_id)
         VALUES ('case-xid', 1, 'T', '{}', '100'), ('case-xid', 2, 'T', '{}', '9'), ('case-xid', 3, 'T', '{}', '10')`,
      );
      const pages = [await store.readAll(null, 2)];
      pages.push(await store.readAll(pages[0][1], 2));
      expect(pages.flat().map((e) => e.transactionId)).toEqual(['9', '10', '100', expect.any(String)]);
    });

    it('rejects a limit that is not a positive integer', async () => {
      await expect(store.readAll(null, 0)).rejects.toThrow(RangeError);
    });
  });

  describe('appendMany', () => {
    it('writes many new streams in chunks within one transaction', async () => {
      const batch = Array.from({ length: 1250 }, (_, i) => ({
        streamId: `import-${i}`,
        expectedVersion: 0,
        events: [
          { type: 'CaseImported', data: { i } },
          { type: 'StagePlanned', data: { i, stage: 1 } },
        ],
      }));
      expect(await store.appendMany(batch, metadata)).toBe(2500);

      const stream = await store.readStream('import-1249');
      expect(stream.map((e) => [e.version, e.type])).toEqual([
        [1, 'CaseImported'],
        [2, 'StagePlanned'],
      ]);
      expect(stream[0].metadata).toEqual(metadata);
      // All three chunks share one transaction.
      const first = await store.readStream('import-0');
      expect(first[0].transactionId).toBe(stream[0].transactionId);
    });

    it('continues existing streams at their expected version', async () => {
      const written = await store.appendMany(
        [{ streamId: 'import-0', expectedVersion: 2, events: [{ type: 'StagePrinted', data: {} }] }],
        metadata,
      );
      expect(written).toBe(1);
      expect((await store.readStream('import-0')).map((e) => e.version)).toEqual([1, 2, 3]);
    });

    it.each([
      ['a stream expected new that exists', { streamId: 'import-5', expectedVersion: 0 }, undefined],
      ['a stream behind its expected version', { streamId: 'import-6', expectedVersion: 7 }, 2],
    ])('rejects the whole batch for %s', async (_, stale, actualVersion) => {
      const batch = [
        { streamId: 'import-new-a', expectedVersion: 0, events: [{ type: 'CaseImported', data: {} }] },
        { ...stale, events: [{ type: 'CaseImported', data: {} }] },
      ];
      await expect(store.appendMany(batch, metadata)).rejects.toMatchObject({
        name: 'WrongExpectedVersionError',
        streamId: stale.streamId,
        actualVersion,
      });
      expect(await store.readStream('import-new-a')).toEqual([]);
    });

    it('rejects a stream listed twice', async () => {
      const entry = {
        streamId: 'import-dup',
        expectedVersion: 0,
        events: [{ type: 'CaseImported', data: {} }],
      };
      await expect(store.appendMany([entry, entry], metadata)).rejects.toThrow(/more than once/);
    });
  });

  describe('withTransactionFor', () => {
    /** A cipher that only records: which streams were prepared, and when each hold was released. */
    function recordingCipher() {
      const log: string[] = [];
      const cipher: EventCipher = {
        seal: async (appends) => appends,
        prepare: async (appends) => {
          log.push(`prepare ${appends.map(({ streamId }) => streamId).join(',')}`);
          return () => void log.push('release');
        },
        open: async (events, queryRunner?: QueryRunner) => {
          log.push(`open ${events.length} ${queryRunner ? 'in the transaction' : 'on the pool'}`);
        },
      };
      return { log, store: new EventStore(database.dataSource, undefined, cipher) };
    }

    it('prepares the keys before the transaction opens and releases them once it has committed', async () => {
      const { log, store: sealing } = recordingCipher();
      const events = [{ type: 'CaseCreated', data: { patient: 'Held' } }];
      const recorded = await sealing.withTransactionFor(
        [{ streamId: 'case-held-1', events }],
        async (runner) => {
          log.push('work');
          await sealing.append('case-held-1', 0, events, metadata, runner);
          // A read in the transaction opens its events on the transaction's connection.
          return sealing.readStream('case-held-1', runner);
        },
      );
      expect(recorded.map(({ version }) => version)).toEqual([1]);
      expect(log).toEqual(['prepare case-held-1', 'work', 'open 1 in the transaction', 'release']);
    });

    it('releases the keys when the work fails, and nothing of it is written', async () => {
      const { log, store: sealing } = recordingCipher();
      const events = [{ type: 'CaseCreated', data: { patient: 'Rolled back' } }];
      await expect(
        sealing.withTransactionFor([{ streamId: 'case-held-2', events }], async (runner) => {
          await sealing.append('case-held-2', 0, events, metadata, runner);
          throw new Error('side write failed');
        }),
      ).rejects.toThrow('side write failed');
      expect(log).toEqual(['prepare case-held-2', 'release']);
      expect(await store.readStream('case-held-2')).toEqual([]);
    });
  });

  describe('checkpoints', () => {
    it('saves, overwrites and loads, and follows the transaction it is saved in', async () => {
      expect(await store.loadCheckpoint('cases')).toBeNull();
      await store.saveCheckpoint('cases', { transactionId: '100', position: '7' });
      await store.saveCheckpoint('cases', { transactionId: '101', position: '9' });
      expect(await store.loadCheckpoint('cases')).toEqual({ transactionId: '101', position: '9' });

      await expect(
        withTransaction(database.dataSource, async (qr) => {
          await store.saveCheckpoint('cases', { transactionId: '200', position: '20' }, qr);
          expect(await store.loadCheckpoint('cases', qr)).toEqual({ transactionId: '200', position: '20' });
          throw new Error('projection failed');
        }),
      ).rejects.toThrow('projection failed');
      expect(await store.loadCheckpoint('cases')).toEqual({ transactionId: '101', position: '9' });
    });
  });
});
