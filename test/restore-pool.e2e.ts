import { CaseKeys } from '../backend/src/event-store/encryption/case-keys';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * A restore appends its cases in one transaction, and a case new to the deployment needs a key,
 * made on a pooled connection of its own. Simultaneous restores each hold a connection in their
 * transaction, the later ones waiting on the first's restore marker: a key made inside the first
 * transaction would wait for a connection that none of them gives back. Reading a key inside the
 * transaction (a case the backup lacks is read to be deleted) must not take a second connection
 * either.
 */
describe('simultaneous restores on a small pool', () => {
  const POOL_SIZE = 2;
  let lab: TestApp;

  beforeAll(async () => {
    lab = await startTestApp({ DATABASE_POOL_SIZE: String(POOL_SIZE) });
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
  });

  it('restores each time when as many restores run as the pool has connections', async () => {
    const admin = await lab.login('admin');
    const backup = (await admin.get('/backup')).body;
    // No key of this case is in the table or cached: the restore has to make it.
    const fresh = {
      id: 'CA-2031-501',
      patientName: 'Pool Restore',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles Dental',
      status: 'Pending Approval',
      priority: 'Normal',
      createdDate: '2031-01-10T08:30:00.000Z',
    };
    const file = { ...backup, cases: [...backup.cases, fresh] };
    const answers = await Promise.all(Array.from({ length: POOL_SIZE }, () => admin.post('/restore', file)));
    // The later restores lose to the first on its marker and try again once it has committed.
    expect(answers.map((answer) => answer.status)).toEqual(Array(POOL_SIZE).fill(200));
    // The patient's name reads back: sealed with the key made for it.
    expect((await admin.get(`/cases/${fresh.id}`)).body.patientName).toBe(fresh.patientName);
  }, 30_000);

  it('restores each time when the cases it deletes have keys this process has not loaded', async () => {
    const admin = await lab.login('admin');
    const backup = (await admin.get('/backup')).body;
    const [dropped, ...kept] = backup.cases;
    // As in a process that has just started: every key is read from the table when first needed.
    lab.app.get(CaseKeys).forget();
    const file = { ...backup, cases: kept };
    const answers = await Promise.all(Array.from({ length: POOL_SIZE }, () => admin.post('/restore', file)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(POOL_SIZE).fill(200));
    expect((await admin.get(`/cases/${dropped.id}`)).status).toBe(404);
    expect((await admin.get(`/cases/${kept[0].id}`)).body.patientName).toBe(kept[0].patientName);
  }, 30_000);
});
