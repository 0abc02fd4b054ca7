import { request as httpRequest } from 'node:http';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { ALL_CASE_STATUSES } from '@alignerflow/domain';
import { EVENTS_COMMITTED } from '../backend/src/event-store/log-listener';
import { startTestApp, type TestApp } from '../test/support/test-app';
import { load, thousands } from './support/load';
import { recordFigure } from './support/report';
import { seedCases } from './support/seed-cases';

/** GET /work-queue with 10,000 cases spread over every status: a Technician's and a Manager's. */
const BENCH = 'bench/work-queue.bench.ts';
const CASES = 10_000;

/** One GET as a browser makes it (gzip), timed to the last byte; nothing is unzipped or parsed. */
function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => resolve(response.statusCode!));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('work queue benchmarks', () => {
  let lab: TestApp;
  beforeAll(async () => {
    lab = await startTestApp();
  });
  afterAll(() => lab.close());

  it('GET /work-queue with 10,000 cases, 4 clients', async () => {
    await seedCases(lab, CASES, { statuses: ALL_CASE_STATUSES });
    const emitter = lab.app.get(EventEmitter2);
    for (const username of ['tech', 'admin']) {
      const client = await lab.login(username);
      const first = await client.get('/work-queue');
      expect(first.status).toBe(200);
      const size = first.body.length as number;
      expect(size).toBeGreaterThan(CASES / 4);
      const headers = { authorization: `Bearer ${client.token}`, 'accept-encoding': 'gzip' };
      const url = `${lab.apiUrl}/work-queue`;
      // Every read after a change: a committed event moves the queue's ETag on, so nothing is kept.
      const fresh = await load(10, 4, async () => {
        emitter.emit(EVENTS_COMMITTED, { events: [] });
        expect(await get(url, headers)).toBe(200);
      });
      // Reads with nothing changed in between: the kept answer.
      const kept = await load(5, 4, async () => expect(await get(url, headers)).toBe(200));
      recordFigure({
        id: `work-queue-${username}`,
        figure: `\`GET /work-queue\` as ${client.user!.role}, ${thousands(size)} of ${thousands(CASES)} cases queued, 4 clients, gzip, to the last byte`,
        measured:
          `after a change: p50 ${fresh.p50} ms, p99 ${fresh.p99} ms, ${thousands(fresh.perSecond)}/s; ` +
          `unchanged: p50 ${kept.p50} ms, p99 ${kept.p99} ms`,
        target: '—',
        bench: BENCH,
      });
    }
  });
});
