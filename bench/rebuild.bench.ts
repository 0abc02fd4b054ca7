import { foldCase, type Case } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { toCaseEvent } from '../backend/src/cases/case-events';
import { createEventStore } from '../backend/src/event-store/event-store.module';
import { ProjectionRebuilder } from '../backend/src/projections/projection-rebuilder';
import { createTestDatabase } from '../test/support/database';
import { thousands } from './support/load';
import { recordFigure } from './support/report';
import { fillLog, syntheticCaseId } from './support/synthetic-log';

/**
 * Projection rebuild rate with 100k and 1M events in the log: the rebuilder `npm run replay` and
 * the admin endpoint run (ProjectionRebuilder with the app's event store), over a synthetic log
 * (bench/support/synthetic-log.ts). The rate is events / wall time of the whole run: statistics
 * check, shadow tables, replay, catch-up and swap. The Node CPU per event is printed beside it.
 */
const BENCH = 'bench/rebuild.bench.ts';
const TARGET = 100_000;

describe('projection rebuild', () => {
  for (const [id, events] of [
    ['rebuild-100k', 100_000],
    ['rebuild-1m', 1_000_000],
  ] as const) {
    it(`rebuilds the read models of a ${thousands(events)}-event log`, async () => {
      const database = await createTestDatabase();
      const dataSource = await new DataSource({
        type: 'postgres',
        url: database.url,
        poolSize: 4,
      }).initialize();
      try {
        const log = await fillLog(database.url, { events });
        process.stdout.write(
          `[bench] ${thousands(events)} events, ${thousands(log.cases)} cases written in ${log.ms} ms\n`,
        );
        const store = createEventStore(dataSource);
        const cpu = process.cpuUsage();
        const started = performance.now();
        const result = await new ProjectionRebuilder(dataSource, store).run();
        const seconds = (performance.now() - started) / 1000;
        const { user, system } = process.cpuUsage(cpu);
        const rate = events / seconds;
        recordFigure({
          id,
          figure: `Projection rebuild, ${thousands(events)} events in the log`,
          measured:
            `${thousands(rate)} events/s (${seconds.toFixed(1)} s, swap ${result.swapMs} ms; ` +
            `Node CPU ${(((user + system) / events) * 1).toFixed(1)} µs/event)`,
          target: '≥ 100,000 events/s',
          met: rate >= TARGET,
          bench: BENCH,
        });

        // Nothing lost: every case is in the new tables, and sampled ones are what evolve makes.
        const [{ cases, ids }] = await dataSource.query(
          'SELECT (SELECT count(*)::int FROM case_view) AS cases, (SELECT count(*)::int FROM case_ids) AS ids',
        );
        expect({ cases, ids }).toEqual({ cases: log.cases, ids: log.cases });
        for (const index of [0, Math.floor(log.cases / 2), log.cases - 1]) {
          const caseId = syntheticCaseId(index);
          const expected = foldCase((await store.readStream(`case-${caseId}`)).map(toCaseEvent)) as Case;
          const [row] = await dataSource.query('SELECT data FROM case_view WHERE id = $1', [caseId]);
          expect(row.data).toEqual(expected);
        }
      } finally {
        await dataSource.destroy();
        await database.drop();
      }
    });
  }
});
