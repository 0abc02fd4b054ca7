import { startTestApp, type TestApp } from './support/test-app';

/**
 * A creation appends in a transaction of its own (its id's reservation commits with its events),
 * and its case's key is made on a pooled connection of its own. With more simultaneous creations
 * than the pool has connections, keys made inside the transactions would leave every connection
 * held by a transaction waiting for another, for ever.
 */
describe('simultaneous creations on a small pool', () => {
  let lab: TestApp;

  beforeAll(async () => {
    lab = await startTestApp({ DATABASE_POOL_SIZE: '3' });
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
  });

  it('creates every case when more creations wait than the pool has connections', async () => {
    const rep = await lab.login('rep');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        rep.post('/cases', { patientName: `Pool ${index}`, doctorName: 'D', clinicName: 'C' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(12);
    // Each patient's name reads back as written: sealed with the key made before its transaction.
    const read = await rep.get(`/cases/${answers[7].body.id}`);
    expect(read.body.patientName).toBe(answers[7].body.patientName);
  }, 30_000);
});
