import { DataSource } from 'typeorm';
import { startTestApp, type TestApp } from './support/test-app';
import { ApiClient } from './support/http';
import { failOnSecretsInAnswers } from './support/no-secrets';

failOnSecretsInAnswers();

const NOT_FOUND = { error: 'Case not found.' };
const CASE_FIELDS = [
  'id',
  'patientName',
  'doctorName',
  'clinicName',
  'assignedDoctorUsername',
  'type',
  'status',
  'statusEnteredAt',
  'priority',
  'onHold',
  'createdDate',
  'deliveryDate',
  'assignedTechnicians',
  'alignerWorkflow',
  'files',
  'notes',
  'treatmentPlanNotes',
  'simulationVideoUrl',
  'simulationExternalLink',
  'price',
  'upperSheets',
  'lowerSheets',
  'staging',
  'stageWearTimeInDays',
  'version',
];
const ALL_STATUSES = [
  'Pending Approval',
  'Scan Received',
  'Digital Planning',
  'Doctor Approval',
  'Model Printing',
  'Thermoforming',
  'Trimming & Polishing',
  'Quality Check',
  'Packaging & Labeling',
  'Delivery to Doctor',
  'Completed',
  'Rejected',
];

const ids = (answer: { body: { id: string }[] }) => answer.body.map((c) => c.id).sort();

describe('case reads over HTTP', () => {
  let lab: TestApp;
  let admin: ApiClient,
    rep: ApiClient,
    designer: ApiClient,
    tech: ApiClient,
    drLee: ApiClient,
    drPatel: ApiClient;

  beforeAll(async () => {
    lab = await startTestApp();
    [admin, rep, designer, tech, drLee, drPatel] = await Promise.all(
      ['admin', 'rep', 'designer', 'tech', 'dr.lee', 'dr.patel'].map((name) => lab.login(name)),
    );
  });
  afterAll(() => lab.close());

  describe('GET /dashboard', () => {
    // First in this file: the figures of the untouched demo seed.
    it('counts the demo seed for every staff role', async () => {
      for (const client of [admin, rep, designer, tech]) {
        const answer = await client.get('/dashboard');
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({
          totalActive: 4,
          pendingManagerApproval: 1,
          awaitingDoctorApproval: 1,
          completedToday: 0,
        });
        // CA-2024-004 was due yesterday; the completed CA-2024-077 no longer counts.
        expect(answer.body.overdue).toBe(1);
        expect(answer.body.byStatus).toEqual(
          Object.fromEntries(
            ALL_STATUSES.map((status) => [
              status,
              [
                'Pending Approval',
                'Digital Planning',
                'Doctor Approval',
                'Thermoforming',
                'Completed',
              ].includes(status)
                ? // CA-2024-077 and the demo's four completed billing cases (CA-2024-101 to 104).
                  status === 'Completed'
                  ? 5
                  : 1
                : 0,
            ]),
          ),
        );
        // Time in stage is where active cases wait: the completed case is not among them.
        expect(Object.keys(answer.body.timeInStage).sort()).toEqual([
          'Digital Planning',
          'Doctor Approval',
          'Pending Approval',
          'Thermoforming',
        ]);
      }
    });

    it('refuses doctors with 403', async () => {
      for (const doctor of [drLee, drPatel]) {
        expect(await doctor.get('/dashboard')).toMatchObject({
          status: 403,
          body: { error: 'The Lab Dashboard is for lab staff.' },
        });
      }
    });

    it('follows the cases: a case completed now counts in completedToday, rejected and deleted ones are not active', async () => {
      for (const from of [
        'Thermoforming',
        'Trimming & Polishing',
        'Quality Check',
        'Packaging & Labeling',
        'Delivery to Doctor',
      ]) {
        expect((await admin.post('/cases/CA-2024-004/advance', { fromStatus: from })).status).toBe(200);
      }
      let figures = (await rep.get('/dashboard')).body;
      expect(figures).toMatchObject({ totalActive: 3, completedToday: 1, overdue: 0 });
      expect(figures.byStatus).toMatchObject({ Thermoforming: 0, Completed: 6 });

      const rejected = (await rep.post('/cases', { patientName: 'R', doctorName: 'D', clinicName: 'C' })).body
        .id;
      const deleted = (await rep.post('/cases', { patientName: 'X', doctorName: 'D', clinicName: 'C' })).body
        .id;
      figures = (await rep.get('/dashboard')).body;
      expect(figures).toMatchObject({ totalActive: 5, pendingManagerApproval: 3 });
      expect((await admin.post(`/cases/${rejected}/reject`, { reason: 'Scan unusable' })).status).toBe(200);
      expect((await admin.delete(`/cases/${deleted}`)).status).toBe(204);
      figures = (await designer.get('/dashboard')).body;
      expect(figures).toMatchObject({ totalActive: 3, pendingManagerApproval: 1, completedToday: 1 });
      expect(figures.byStatus).toMatchObject({ 'Pending Approval': 1, Rejected: 1, Completed: 6 });
    });
  });

  describe('GET /cases', () => {
    it('shows staff every case and a doctor only their own', async () => {
      const everything = ids(await admin.get('/cases'));
      expect(everything).toEqual(
        expect.arrayContaining(['CA-2024-001', 'CA-2024-002', 'CA-2024-003', 'CA-2024-004', 'CA-2024-077']),
      );
      for (const client of [rep, designer, tech]) expect(ids(await client.get('/cases'))).toEqual(everything);

      const lee = await drLee.get('/cases');
      expect(lee.status).toBe(200);
      // The spec's sample cases and the demo's completed billing cases (CA-2024-101 to 104).
      expect(ids(lee)).toEqual(['CA-2024-001', 'CA-2024-003', 'CA-2024-077', 'CA-2024-101', 'CA-2024-103']);
      expect(
        lee.body.every((c: { assignedDoctorUsername: string }) => c.assignedDoctorUsername === 'dr.lee'),
      ).toBe(true);
      expect(ids(await drPatel.get('/cases'))).toEqual([
        'CA-2024-002',
        'CA-2024-004',
        'CA-2024-102',
        'CA-2024-104',
      ]);
    });

    it("lists a doctor's new case for them alone", async () => {
      const created = await drPatel.post('/cases', {
        patientName: 'New',
        doctorName: 'Dr. Raj Patel',
        clinicName: 'Downtown',
      });
      expect(created.status).toBe(201);
      expect(ids(await drPatel.get('/cases'))).toContain(created.body.id);
      expect(ids(await drLee.get('/cases'))).not.toContain(created.body.id);
      expect(ids(await tech.get('/cases'))).toContain(created.body.id);
    });

    it('answers each case as a summary: every field of the contract but notes, which noteCount replaces', async () => {
      const list = (await admin.get('/cases')).body;
      for (const item of list) {
        for (const field of CASE_FIELDS.filter((name) => name !== 'notes'))
          expect(item).toHaveProperty(field);
        expect(item).not.toHaveProperty('notes');
        expect(item.version).toBeGreaterThanOrEqual(1);
      }
      const single = await admin.get('/cases/CA-2024-001');
      for (const field of CASE_FIELDS) expect(single.body).toHaveProperty(field);
      const { notes, ...fields } = single.body;
      expect(notes.length).toBeGreaterThan(0);
      expect(list.find((item: { id: string }) => item.id === 'CA-2024-001')).toEqual({
        ...fields,
        noteCount: notes.length,
      });
    });

    it('keeps each note as a row of its own: a note adds one row, the case row holds none', async () => {
      const dataSource = lab.app.get(DataSource);
      // A seeded case this process never wrote: the command decides on its stored snapshot.
      const before = (await admin.get('/cases/CA-2024-003')).body;
      const count = before.notes.length;
      const noted = await admin.post('/cases/CA-2024-003/notes', { text: 'One row more.' });
      expect(noted.status).toBe(201);
      // The answer is still the whole case: the earlier notes read back, the new one after them.
      expect(noted.body.notes).toEqual([...before.notes, expect.objectContaining({ text: 'One row more.' })]);
      expect((await admin.get('/cases/CA-2024-003')).body).toEqual(noted.body);

      const [row] = await dataSource.query(
        `SELECT data ? 'notes' AS "hasNotes", note_count AS "noteCount",
                (SELECT count(*)::int FROM case_notes WHERE case_id = v.id) AS rows,
                (SELECT note->>'text' FROM case_notes WHERE case_id = v.id AND ordinal = $2) AS last
           FROM case_view v WHERE id = $1`,
        ['CA-2024-003', count],
      );
      expect(row).toEqual({ hasNotes: false, noteCount: count + 1, rows: count + 1, last: 'One row more.' });
    });

    it('answers 304 to If-None-Match with the current ETag, per caller, until a case changes', async () => {
      const staff = await rep.get('/cases');
      const staffTag = staff.headers.get('etag')!;
      expect(staffTag).toBeTruthy();
      const unchanged = await tech.get('/cases', { 'if-none-match': staffTag });
      expect(unchanged.status).toBe(304);
      expect(unchanged.body).toBeUndefined();
      expect((await rep.get('/cases', { 'if-none-match': `"other", ${staffTag}` })).status).toBe(304);

      // A doctor's list is another list: the staff tag never matches it.
      const doctor = await drLee.get('/cases', { 'if-none-match': staffTag });
      expect(doctor.status).toBe(200);
      const doctorTag = doctor.headers.get('etag')!;
      expect(doctorTag).not.toBe(staffTag);
      expect((await drLee.get('/cases', { 'if-none-match': doctorTag })).status).toBe(304);
      expect((await drPatel.get('/cases', { 'if-none-match': doctorTag })).status).toBe(200);

      expect((await rep.post('/cases/CA-2024-001/notes', { text: 'A change' })).status).toBe(201);
      const changed = await rep.get('/cases', { 'if-none-match': staffTag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(staffTag);
      expect((await drLee.get('/cases', { 'if-none-match': doctorTag })).status).toBe(200);
    });
  });

  describe('GET /cases/{id}', () => {
    it('answers a case to staff and to its doctor', async () => {
      for (const client of [admin, rep, designer, tech, drLee]) {
        const answer = await client.get('/cases/CA-2024-003');
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({
          id: 'CA-2024-003',
          patientName: 'Olivia Martinez',
          status: 'Doctor Approval',
          assignedDoctorUsername: 'dr.lee',
          type: 'Clear Aligner',
        });
      }
      const completed = (await drLee.get('/cases/CA-2024-077')).body;
      expect(completed.status).toBe('Completed');
      expect(completed.staging).toHaveLength(20);
      expect(completed.staging.slice(0, 5).map((stage: { status: string }) => stage.status)).toEqual([
        'Completed',
        'Completed',
        'Completed',
        'In Progress',
        'Not Started',
      ]);
    });

    it("answers 404 for another doctor's case, exactly as for an unknown one", async () => {
      expect(await drLee.get('/cases/CA-2024-002')).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await drPatel.get('/cases/CA-2024-001')).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await drPatel.get('/cases/CA-2024-999')).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await admin.get('/cases/CA-2024-999')).toMatchObject({ status: 404, body: NOT_FOUND });
    });
  });

  describe('GET /cases/{id}/history', () => {
    it('answers every event oldest first, with its version, data, actor and time', async () => {
      const id = (await rep.post('/cases', { patientName: 'H', doctorName: 'D', clinicName: 'C' })).body.id;
      await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.lee' });
      await drLee.post(`/cases/${id}/notes`, { text: 'Looks good' });
      await designer.post(`/cases/${id}/advance`, { fromStatus: 'Digital Planning' });

      for (const client of [admin, tech, drLee]) {
        const history = await client.get(`/cases/${id}/history`);
        expect(history.status).toBe(200);
        const entries = history.body as {
          position: string;
          version: number;
          type: string;
          data: any;
          actor: any;
          at: string;
        }[];
        expect(entries.map((entry) => [entry.version, entry.type, entry.actor])).toEqual([
          [1, 'CaseCreated', { username: 'rep', role: 'Representative' }],
          [2, 'CaseApproved', { username: 'admin', role: 'Manager' }],
          [3, 'NoteAdded', { username: 'dr.lee', role: 'Doctor' }],
          [4, 'StageAdvanced', { username: 'designer', role: 'Designer' }],
        ]);
        expect(entries[0].data).toMatchObject({ id, patientName: 'H' });
        expect(entries[1].data).toEqual({ doctorUsername: 'dr.lee' });
        expect(entries[2].data).toEqual({ text: 'Looks good' });
        expect(entries[3].data).toEqual({ from: 'Digital Planning', to: 'Doctor Approval' });
        const positions = entries.map((entry) => BigInt(entry.position));
        expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
        const times = entries.map((entry) => Date.parse(entry.at));
        expect(times.every((time) => !Number.isNaN(time))).toBe(true);
        expect(times).toEqual([...times].sort((a, b) => a - b));
      }
      // The case itself says how many events made it.
      expect((await admin.get(`/cases/${id}`)).body.version).toBe(4);
    });

    it('answers the history of a seeded case', async () => {
      const history = await admin.get('/cases/CA-2024-077/history');
      expect(history.status).toBe(200);
      expect(history.body[0]).toMatchObject({ version: 1, type: 'CaseCreated' });
    });

    it("answers 404 for another doctor's case and an unknown one", async () => {
      expect(await drPatel.get('/cases/CA-2024-003/history')).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await drLee.get('/cases/CA-2024-004/history')).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await admin.get('/cases/CA-1999-123/history')).toMatchObject({ status: 404, body: NOT_FOUND });
    });
  });
});
