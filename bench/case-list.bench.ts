import { startTestApp, type TestApp } from '../test/support/test-app';
import { load, thousands } from './support/load';
import { recordFigure } from './support/report';

/** GET /cases with 10,000 cases: the 200 and the 304 (If-None-Match) paths. */
const BENCH = 'bench/case-list.bench.ts';

describe('case list benchmarks', () => {
  let lab: TestApp;
  beforeAll(async () => {
    lab = await startTestApp();
  });
  afterAll(() => lab.close());

  it('GET /cases with 10,000 cases: 200 and 304', async () => {
    const admin = await lab.login('admin');
    const existing = (await admin.get('/cases')).body.length;
    const rep = await lab.login('rep');
    for (let made = existing; made < 10_000; made += 200) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(200, 10_000 - made) }, (_, i) =>
          rep.post('/cases', { patientName: `Patient ${made + i}`, doctorName: 'D', clinicName: 'C' }),
        ),
      );
      expect(answers.filter(({ status }) => status !== 201)).toEqual([]);
    }
    const first = await admin.get('/cases');
    const etag = first.headers.get('etag')!;
    const full = await load(10, 4, () => admin.get('/cases'));
    const notModified = await load(10, 4, () => admin.get('/cases', { 'if-none-match': etag }));
    const megabytes = (JSON.stringify(first.body).length / 1e6).toFixed(1);
    recordFigure({
      id: 'case-list-200',
      figure: `\`GET /cases\`, ${thousands(first.body.length)} cases (${megabytes} MB), 4 clients`,
      measured: `p50 ${full.p50} ms, p99 ${full.p99} ms, ${thousands(full.perSecond)}/s`,
      target: '≤ 25 ms',
      met: full.p50 <= 25,
      bench: BENCH,
    });
    recordFigure({
      id: 'case-list-304',
      figure: '`GET /cases` 304 (If-None-Match)',
      measured: `p50 ${notModified.p50} ms, p99 ${notModified.p99} ms, ${thousands(notModified.perSecond)}/s`,
      target: '≤ 2 ms',
      met: notModified.p50 <= 2,
      bench: BENCH,
    });
    expect(first.body.length).toBeGreaterThanOrEqual(10_000);
  });
});
