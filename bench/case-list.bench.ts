import { request as httpRequest } from 'node:http';
import { buildBackend, startApiProcess, type ApiProcess } from '../test/support/app-process';
import { createTestDatabase } from '../test/support/database';
import type { TestApp } from '../test/support/test-app';
import { cpuSeconds, load, thousands } from './support/load';
import { recordFigure } from './support/report';
import { seedCases } from './support/seed-cases';

/**
 * GET /cases with 10,000 cases: the 200 and the 304 (If-None-Match) paths. The API runs as in
 * production (`node backend/dist/main.js`) in its own process, the clients in this one, so the
 * figures are the server's, not shared with its clients' own CPU.
 */
const BENCH = 'bench/case-list.bench.ts';
const CASES = 10_000;

/**
 * One GET as a browser makes it, timed to the last byte of the answer as sent (a gzip answer is
 * not unzipped, and nothing is parsed: the figure is the server's, not this client's).
 */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; bytes: number; etag?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () =>
        resolve({ status: response.statusCode!, bytes, etag: response.headers.etag as string | undefined }),
      );
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('case list benchmarks', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let api: ApiProcess | undefined;
  beforeAll(async () => {
    await buildBackend();
    database = await createTestDatabase();
    api = await startApiProcess('API', { DATABASE_URL: database.url });
  }, 300_000);
  afterAll(async () => {
    await api?.stop();
    await database?.drop();
  });

  it('GET /cases with 10,000 cases: 200 and 304', async () => {
    // The seeding signs in and restores through the API: all it needs of a test app.
    await seedCases({ login: (username: string) => api!.login(username) } as TestApp, CASES);
    const admin = await api!.login('admin');
    const auth = { authorization: `Bearer ${admin.token}` };
    const gzip = { ...auth, 'accept-encoding': 'gzip' };
    const url = `${api!.api}/cases`;
    /** CPU time (user + system) of the API process, in ms. */
    const cpuMs = () => cpuSeconds(api!.child.pid!) * 1000;

    const first = await admin.get('/cases');
    expect(first.status).toBe(200);
    expect(first.body.length).toBeGreaterThanOrEqual(CASES);
    const megabytes = (JSON.stringify(first.body).length / 1e6).toFixed(1);
    const zipped = await get(url, gzip);
    expect(zipped.status).toBe(200);
    const etag = zipped.etag!;

    const measure = async (headers: Record<string, string>, status: number) => {
      const before = cpuMs();
      const figures = await load(10, 4, async () => expect((await get(url, headers)).status).toBe(status));
      return { ...figures, cpuPerRequest: ((cpuMs() - before) / figures.count).toFixed(2) };
    };
    const full = await measure(gzip, 200);
    const identity = await measure(auth, 200);
    const notModified = await measure({ ...gzip, 'if-none-match': etag }, 304);
    recordFigure({
      id: 'case-list-200',
      figure: `\`GET /cases\`, ${thousands(first.body.length)} cases (${megabytes} MB JSON, ${(zipped.bytes / 1e6).toFixed(1)} MB gzip), 4 clients, to the last byte (API in its own process)`,
      measured:
        `gzip (as browsers ask): p50 ${full.p50} ms, p99 ${full.p99} ms, ${thousands(full.perSecond)}/s, ` +
        `${full.cpuPerRequest} ms API CPU/request; without gzip: p50 ${identity.p50} ms, p99 ${identity.p99} ms`,
      target: '≤ 25 ms',
      met: full.p50 <= 25,
      bench: BENCH,
    });
    recordFigure({
      id: 'case-list-304',
      figure: '`GET /cases` 304 (If-None-Match), 4 clients (API in its own process)',
      measured:
        `p50 ${notModified.p50} ms, p99 ${notModified.p99} ms, ${thousands(notModified.perSecond)}/s, ` +
        `${notModified.cpuPerRequest} ms API CPU/request`,
      target: '≤ 2 ms',
      met: notModified.p50 <= 2,
      bench: BENCH,
    });
  });
});
