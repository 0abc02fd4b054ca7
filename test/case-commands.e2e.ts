import { startTestApp, type TestApp } from './support/test-app';
import { byUsername, caseAt as roadCaseAt } from './support/case-road';
import { ApiClient } from './support/http';
import { failOnSecretsInAnswers } from './support/no-secrets';

failOnSecretsInAnswers();

const TEXT = {
  notFound: 'Case not found.',
  managerOnly: 'Only a manager can do this.',
  needsManagerApproval: 'This case must be approved by a manager before proceeding.',
  waitingForDoctor: "Waiting for doctor's approval before proceeding.",
  complete: 'This case is complete.',
  rejected: 'This case was rejected.',
  onHold: 'This case is currently on hold. Workflow actions are disabled.',
  concurrentChange: 'The case was changed by someone else. Reload and try again.',
  onlyAtPendingApproval: 'Only a case pending approval can be approved or rejected.',
  onlyAtDoctorApproval: 'The treatment plan can only be reviewed at Doctor Approval.',
  onlyAssignedDoctor: 'Only the assigned doctor can review this treatment plan.',
  createRoles: 'Only a Manager, a Representative or a Doctor can create cases.',
  pricingRoles: 'Only a Manager or a Representative can edit pricing.',
  simulationRoles: 'Only a Designer or a Manager can save simulation links.',
  onlyAtDigitalPlanning: 'Simulation links can only be saved at Digital Planning.',
  qrRoles: 'Only users who can act on this case can show its QR code.',
  qrNotYet: 'The case QR code is available once the case is approved.',
  stagingRoles: 'Only the assigned doctor or a manager can change aligner stages.',
  invalidQr: 'Invalid QR Code',
};

/** The path of a case from Pending Approval on. */
const ROUTE = [
  'Pending Approval',
  'Digital Planning',
  'Doctor Approval',
  'Model Printing',
  'Thermoforming',
  'Trimming & Polishing',
  'Quality Check',
  'Packaging & Labeling',
  'Delivery to Doctor',
  'Completed',
] as const;
type RouteStatus = (typeof ROUTE)[number];

describe('case commands over HTTP', () => {
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

  /** A new case of dr.lee's (six upper, four lower sheets), walked the usual road to `status`. */
  const caseAt = (status: RouteStatus) =>
    roadCaseAt(byUsername(admin, rep, drLee), status, { upperSheets: 6, lowerSheets: 4 }, 'rep');

  /** The case as a manager reads it, and its history length. */
  async function snapshot(id: string) {
    const [found, history] = await Promise.all([
      admin.get(`/cases/${id}`),
      admin.get(`/cases/${id}/history`),
    ]);
    expect(found.status).toBe(200);
    return { case: found.body, events: history.body.length as number };
  }

  async function expectUnchanged(before: { case: any; events: number }) {
    const after = await snapshot(before.case.id);
    expect(after.case).toEqual(before.case);
    expect(after.events).toBe(before.events);
    expect(after.case.version).toBe(before.events);
  }

  const lastNote = (c: any) => c.notes[c.notes.length - 1];
  const step = (c: any, name: string) => c.alignerWorkflow.find((s: { name: string }) => s.name === name);

  describe('POST /cases', () => {
    it('creates a case at Pending Approval with a fresh id and the creation note', async () => {
      const answer = await rep.post('/cases', {
        patientName: '  Ada Lovelace ',
        doctorName: 'Dr. Sarah Lee',
        clinicName: 'Bright Smiles Dental',
        priority: 'High',
        treatmentPlanNotes: 'Close the gap.',
      });
      expect(answer.status).toBe(201);
      const year = new Date().getFullYear();
      expect(answer.body.id).toMatch(new RegExp(`^CA-${year}-[1-9]\\d{2}$`));
      expect(answer.body).toMatchObject({
        patientName: 'Ada Lovelace',
        status: 'Pending Approval',
        priority: 'High',
        onHold: false,
        assignedDoctorUsername: null,
        assignedTechnicians: ['Unassigned'],
        treatmentPlanNotes: 'Close the gap.',
        price: null,
        upperSheets: null,
        lowerSheets: null,
        staging: [],
        fee: null,
        version: 1,
      });
      expect(answer.body.notes.map((note: { text: string }) => note.text)).toEqual([
        'Case created by Representative and submitted for approval.',
      ]);
      // Due in 14 days unless a date is given.
      const due = new Date(answer.body.createdDate);
      due.setUTCDate(due.getUTCDate() + 14);
      expect(answer.body.deliveryDate).toBe(due.toISOString().slice(0, 10));
      expect((await admin.get(`/cases/${answer.body.id}`)).body).toEqual(answer.body);
    });

    it('names the creating role in the note and takes a given due date', async () => {
      const answer = await admin.post('/cases', {
        patientName: 'P',
        doctorName: 'D',
        clinicName: 'C',
        deliveryDate: '2031-03-15',
      });
      expect(answer.status).toBe(201);
      expect(answer.body.deliveryDate).toBe('2031-03-15');
      expect(answer.body.notes[0].text).toBe('Case created by Manager and submitted for approval.');
      expect(answer.body.priority).toBe('Normal');
    });

    it('makes a creating doctor the assigned doctor and records the $50 fee', async () => {
      const answer = await drLee.post('/cases', {
        patientName: 'P',
        doctorName: 'Dr. Sarah Lee',
        clinicName: 'C',
      });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({
        assignedDoctorUsername: 'dr.lee',
        fee: { amount: 50, currency: 'USD', paidAt: expect.any(String) },
      });
      expect(answer.body.notes[0].text).toBe('Case created by Doctor and submitted for approval.');
      expect((await drLee.get(`/cases/${answer.body.id}`)).status).toBe(200);
      expect((await drPatel.get(`/cases/${answer.body.id}`)).status).toBe(404);
    });

    it('never hands out one id twice, even to parallel creations', async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          rep.post('/cases', { patientName: `P${index}`, doctorName: 'D', clinicName: 'C' }),
        ),
      );
      expect(answers.every((answer) => answer.status === 201)).toBe(true);
      const created = answers.map((answer) => answer.body.id);
      expect(new Set(created).size).toBe(created.length);
      const all = (await admin.get('/cases')).body.map((c: { id: string }) => c.id);
      expect(new Set(all).size).toBe(all.length);
    });

    it('refuses Designers and Technicians with 403 and creates nothing', async () => {
      const before = (await admin.get('/cases')).body.length;
      for (const client of [designer, tech]) {
        expect(
          await client.post('/cases', { patientName: 'P', doctorName: 'D', clinicName: 'C' }),
        ).toMatchObject({
          status: 403,
          body: { error: TEXT.createRoles },
        });
      }
      expect((await admin.get('/cases')).body.length).toBe(before);
    });

    it('refuses a missing name, an unknown priority and a non-date due date with 400', async () => {
      const valid = { patientName: 'P', doctorName: 'D', clinicName: 'C' };
      for (const field of ['patientName', 'doctorName', 'clinicName']) {
        expect((await rep.post('/cases', { ...valid, [field]: undefined })).status).toBe(400);
        expect((await rep.post('/cases', { ...valid, [field]: '   ' })).status).toBe(400);
      }
      expect(await rep.post('/cases', { ...valid, priority: 'Urgent' })).toMatchObject({
        status: 400,
        body: { error: 'Priority must be Normal or High.' },
      });
      expect(await rep.post('/cases', { ...valid, deliveryDate: '2031-02-30' })).toMatchObject({
        status: 400,
        body: { error: 'Due date must be a date (YYYY-MM-DD).' },
      });
    });
  });

  describe('PUT /cases/{id} (Edit Case)', () => {
    it('takes back the full case as GET returned it with a changed patient name', async () => {
      const before = await caseAt('Digital Planning');
      const full = (await admin.get(`/cases/${before.id}`)).body;
      const answer = await admin.put(`/cases/${before.id}`, {
        ...full,
        patientName: 'Renamed Patient',
        clinicName: 'New Clinic',
        priority: 'High',
        deliveryDate: '2031-01-01',
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        ...full,
        patientName: 'Renamed Patient',
        clinicName: 'New Clinic',
        priority: 'High',
        deliveryDate: '2031-01-01',
        version: full.version + 1,
      });
      const history = (await admin.get(`/cases/${before.id}/history`)).body;
      expect(history[history.length - 1]).toMatchObject({
        type: 'CaseDetailsEdited',
        actor: { username: 'admin' },
      });
    });

    it('refuses a changed workflow field with 400 and changes nothing', async () => {
      const theCase = await caseAt('Digital Planning');
      const before = await snapshot(theCase.id);
      for (const change of [
        { status: 'Completed' },
        { onHold: true },
        { assignedDoctorUsername: 'dr.patel' },
        { price: 1 },
        { notes: [] },
      ]) {
        const field = Object.keys(change)[0];
        const answer = await admin.put(`/cases/${theCase.id}`, {
          ...before.case,
          patientName: 'Changed',
          ...change,
        });
        expect(answer).toMatchObject({
          status: 400,
          body: { error: `"${field}" cannot be changed by Edit Case.` },
        });
      }
      await expectUnchanged(before);
    });

    it('removes the file entry of a link emptied by the edit, and adds one for a new link', async () => {
      const theCase = await caseAt('Digital Planning');
      await designer.put(`/cases/${theCase.id}/simulation`, {
        simulationVideoUrl: 'https://sim.example/v.mp4',
        simulationExternalLink: 'https://sim.example/3d',
      });
      const full = (await admin.get(`/cases/${theCase.id}`)).body;
      expect(full.files.map((file: { type: string }) => file.type).sort()).toEqual([
        'External Link',
        'Simulation Video',
      ]);

      const emptied = await admin.put(`/cases/${theCase.id}`, { ...full, simulationVideoUrl: '' });
      expect(emptied.status).toBe(200);
      expect(emptied.body.simulationVideoUrl).toBe('');
      expect(emptied.body.files).toEqual([
        { name: 'External Simulation', type: 'External Link', url: 'https://sim.example/3d', size: 'Link' },
      ]);
      const replaced = await admin.put(`/cases/${theCase.id}`, {
        simulationExternalLink: 'https://sim.example/other',
        simulationVideoUrl: ' https://sim.example/new.mp4 ',
      });
      expect(replaced.body.files.map((file: { url: string }) => file.url).sort()).toEqual([
        'https://sim.example/new.mp4',
        'https://sim.example/other',
      ]);
      expect(
        await admin.put(`/cases/${theCase.id}`, { simulationExternalLink: 'javascript:alert(1)' }),
      ).toMatchObject({ status: 400, body: { error: 'External Simulation Link must be an http(s) URL.' } });
    });

    it('is for managers only: 403 for other roles, 404 for a doctor who cannot see it', async () => {
      const theCase = await caseAt('Digital Planning');
      const before = await snapshot(theCase.id);
      for (const client of [rep, designer, tech, drLee]) {
        expect(await client.put(`/cases/${theCase.id}`, { patientName: 'X' })).toMatchObject({
          status: 403,
          body: { error: TEXT.managerOnly },
        });
      }
      expect(await drPatel.put(`/cases/${theCase.id}`, { patientName: 'X' })).toMatchObject({
        status: 404,
        body: { error: TEXT.notFound },
      });
      expect(await admin.put('/cases/CA-1999-999', { patientName: 'X' })).toMatchObject({ status: 404 });
      await expectUnchanged(before);
    });

    it('refuses an edit based on a stale version with 409', async () => {
      const theCase = await caseAt('Pending Approval');
      await admin.post(`/cases/${theCase.id}/notes`, { text: 'moved on' });
      const before = await snapshot(theCase.id);
      expect(
        await admin.put(`/cases/${theCase.id}`, { patientName: 'Late', expectedVersion: theCase.version }),
      ).toMatchObject({ status: 409, body: { error: TEXT.concurrentChange } });
      await expectUnchanged(before);
      // A mistyped version is refused, never silently ignored.
      for (const expectedVersion of ['2', -1, 1.5, true]) {
        expect(
          (await admin.put(`/cases/${theCase.id}`, { patientName: 'Typo', expectedVersion })).status,
        ).toBe(400);
      }
      await expectUnchanged(before);
      const current = await admin.put(`/cases/${theCase.id}`, { patientName: 'On time', expectedVersion: 2 });
      expect(current).toMatchObject({ status: 200, body: { patientName: 'On time', version: 3 } });
    });
  });

  describe('DELETE /cases/{id}', () => {
    it('deletes: 204, then 404 everywhere and absent from every list', async () => {
      const theCase = await caseAt('Digital Planning');
      const answer = await admin.delete(`/cases/${theCase.id}`);
      expect(answer.status).toBe(204);
      expect(answer.body).toBeUndefined();
      for (const client of [admin, drLee]) {
        expect(await client.get(`/cases/${theCase.id}`)).toMatchObject({
          status: 404,
          body: { error: TEXT.notFound },
        });
        expect((await client.get(`/cases/${theCase.id}/history`)).status).toBe(404);
        expect((await client.get('/cases')).body.map((c: { id: string }) => c.id)).not.toContain(theCase.id);
      }
      expect((await admin.post(`/cases/${theCase.id}/notes`, { text: 'ghost' })).status).toBe(404);
      expect((await admin.post(`/cases/${theCase.id}/advance`)).status).toBe(404);
      expect((await admin.post('/scan', { payload: theCase.id })).status).toBe(404);
      expect(await admin.delete(`/cases/${theCase.id}`)).toMatchObject({
        status: 404,
        body: { error: TEXT.notFound },
      });
    });

    it('is for managers only', async () => {
      const theCase = await caseAt('Pending Approval');
      for (const client of [rep, designer, tech]) {
        expect(await client.delete(`/cases/${theCase.id}`)).toMatchObject({
          status: 403,
          body: { error: TEXT.managerOnly },
        });
      }
      expect((await drLee.delete('/cases/CA-2024-001')).status).toBe(403);
      expect((await drPatel.delete('/cases/CA-2024-001')).status).toBe(404);
      expect((await admin.get(`/cases/${theCase.id}`)).status).toBe(200);
      expect((await admin.get('/cases/CA-2024-001')).status).toBe(200);
    });
  });

  describe('POST /cases/{id}/approve', () => {
    it('approves a pending case: Digital Planning, the doctor assigned, a note', async () => {
      const theCase = await caseAt('Pending Approval');
      const answer = await admin.post(`/cases/${theCase.id}/approve`, { doctorUsername: 'DR.PATEL' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        status: 'Digital Planning',
        assignedDoctorUsername: 'dr.patel',
        version: 2,
      });
      expect(answer.body.alignerWorkflow.slice(0, 3).map((s: { completed: boolean }) => s.completed)).toEqual(
        [true, true, false],
      );
      expect(lastNote(answer.body)).toMatchObject({
        text: 'Case approved by admin and assigned to doctor dr.patel.',
        author: 'admin',
        role: 'Manager',
      });
      expect((await drPatel.get(`/cases/${theCase.id}`)).status).toBe(200);
    });

    it('needs a doctor: none, a non-doctor or an unknown user is 400', async () => {
      const theCase = await caseAt('Pending Approval');
      const before = await snapshot(theCase.id);
      expect(await admin.post(`/cases/${theCase.id}/approve`, {})).toMatchObject({
        status: 400,
        body: { error: 'Choose a doctor to approve this case.' },
      });
      expect(await admin.post(`/cases/${theCase.id}/approve`, { doctorUsername: '  ' })).toMatchObject({
        status: 400,
        body: { error: 'Choose a doctor to approve this case.' },
      });
      expect(await admin.post(`/cases/${theCase.id}/approve`, { doctorUsername: 'rep' })).toMatchObject({
        status: 400,
        body: { error: '"rep" is not a doctor.' },
      });
      expect(await admin.post(`/cases/${theCase.id}/approve`, { doctorUsername: 'dr.nobody' })).toMatchObject(
        {
          status: 400,
          body: { error: '"dr.nobody" is not a doctor.' },
        },
      );
      await expectUnchanged(before);
    });

    it('is for managers only', async () => {
      const theCase = await caseAt('Pending Approval');
      const before = await snapshot(theCase.id);
      for (const client of [rep, designer, tech]) {
        expect(await client.post(`/cases/${theCase.id}/approve`, { doctorUsername: 'dr.lee' })).toMatchObject(
          {
            status: 403,
            body: { error: TEXT.managerOnly },
          },
        );
      }
      await expectUnchanged(before);
    });

    it('only at Pending Approval and not on hold: 409 whoever asks', async () => {
      const planned = await caseAt('Digital Planning');
      for (const client of [admin, rep]) {
        expect(await client.post(`/cases/${planned.id}/approve`, { doctorUsername: 'dr.lee' })).toMatchObject(
          {
            status: 409,
            body: { error: TEXT.onlyAtPendingApproval },
          },
        );
      }
      const held = await caseAt('Pending Approval');
      await admin.post(`/cases/${held.id}/hold`);
      const before = await snapshot(held.id);
      for (const client of [admin, rep]) {
        expect(await client.post(`/cases/${held.id}/approve`, { doctorUsername: 'dr.lee' })).toMatchObject({
          status: 409,
          body: { error: TEXT.onHold },
        });
      }
      await expectUnchanged(before);
    });
  });

  describe('POST /cases/{id}/reject', () => {
    it('rejects a pending case with a reason: Rejected, the reason as a note, terminal', async () => {
      const theCase = await caseAt('Pending Approval');
      const answer = await admin.post(`/cases/${theCase.id}/reject`, { reason: '  Scans are unusable  ' });
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('Rejected');
      expect(lastNote(answer.body).text).toBe('Case rejected: Scans are unusable');
      expect(await admin.post(`/cases/${theCase.id}/advance`)).toMatchObject({
        status: 409,
        body: { error: TEXT.rejected },
      });
      expect(await admin.post(`/cases/${theCase.id}/approve`, { doctorUsername: 'dr.lee' })).toMatchObject({
        status: 409,
        body: { error: TEXT.onlyAtPendingApproval },
      });
      expect(await admin.post(`/cases/${theCase.id}/qr`)).toMatchObject({
        status: 409,
        body: { error: TEXT.qrNotYet },
      });
    });

    it('needs a reason', async () => {
      const theCase = await caseAt('Pending Approval');
      const before = await snapshot(theCase.id);
      for (const body of [{}, { reason: '' }, { reason: ' \n ' }]) {
        expect(await admin.post(`/cases/${theCase.id}/reject`, body)).toMatchObject({
          status: 400,
          body: { error: 'A reason is required to reject a case.' },
        });
      }
      await expectUnchanged(before);
    });

    it('is for managers only, and only at Pending Approval', async () => {
      const theCase = await caseAt('Pending Approval');
      for (const client of [rep, designer, tech]) {
        expect(await client.post(`/cases/${theCase.id}/reject`, { reason: 'no' })).toMatchObject({
          status: 403,
          body: { error: TEXT.managerOnly },
        });
      }
      const planned = await caseAt('Digital Planning');
      expect(await admin.post(`/cases/${planned.id}/reject`, { reason: 'no' })).toMatchObject({
        status: 409,
        body: { error: TEXT.onlyAtPendingApproval },
      });
      expect((await admin.get(`/cases/${theCase.id}`)).body.status).toBe('Pending Approval');
    });
  });

  describe('POST /cases/{id}/advance', () => {
    it('moves each stage on for its owners only; the others get 403 naming the owners', async () => {
      const theCase = await caseAt('Digital Planning');
      const owners: [RouteStatus, ApiClient, string][] = [
        ['Digital Planning', designer, 'Designer or Manager'],
        ['Model Printing', tech, 'Technician or Manager'],
        ['Thermoforming', tech, 'Technician or Manager'],
        ['Trimming & Polishing', tech, 'Technician or Manager'],
        ['Quality Check', tech, 'Technician or Manager'],
        ['Packaging & Labeling', rep, 'Representative or Manager'],
        ['Delivery to Doctor', rep, 'Representative or Manager'],
      ];
      for (const [status, owner, named] of owners) {
        const before = await snapshot(theCase.id);
        expect(before.case.status).toBe(status);
        for (const other of [rep, designer, tech, drLee].filter((client) => client !== owner)) {
          expect(await other.post(`/cases/${theCase.id}/advance`, { fromStatus: status })).toMatchObject({
            status: 403,
            body: { error: `This stage can only be completed by: ${named}` },
          });
        }
        await expectUnchanged(before);
        const moved = await owner.post(`/cases/${theCase.id}/advance`, { fromStatus: status });
        expect(moved.status).toBe(200);
        expect(moved.body.status).toBe(ROUTE[ROUTE.indexOf(status) + 1]);
        expect(step(moved.body, status)).toMatchObject({ completed: true, date: expect.any(String) });
        expect(moved.body.version).toBe(before.case.version + 1);
        if (status === 'Digital Planning')
          expect((await drLee.post(`/cases/${theCase.id}/doctor-approve`)).status).toBe(200);
      }
      const done = (await admin.get(`/cases/${theCase.id}`)).body;
      expect(done.status).toBe('Completed');
      expect(done.staging).toHaveLength(6);
      expect(done.stageWearTimeInDays).toBe(15);
    });

    it('lets a manager advance every stage it owns', async () => {
      const theCase = await caseAt('Completed');
      expect(theCase.alignerWorkflow.every((s: { completed: boolean }) => s.completed)).toBe(true);
    });

    it('answers the guidance texts with 409 whoever asks: approval statuses, Completed', async () => {
      const pending = await caseAt('Pending Approval');
      const review = await caseAt('Doctor Approval');
      const cases: [string, string][] = [
        [pending.id, TEXT.needsManagerApproval],
        [review.id, TEXT.waitingForDoctor],
        ['CA-2024-077', TEXT.complete],
      ];
      for (const [id, error] of cases) {
        const before = await snapshot(id);
        for (const client of [admin, rep, designer, tech]) {
          expect(await client.post(`/cases/${id}/advance`)).toMatchObject({ status: 409, body: { error } });
        }
        await expectUnchanged(before);
      }
      // The assigned doctor too: state before role.
      expect(await drLee.post(`/cases/${review.id}/advance`)).toMatchObject({
        status: 409,
        body: { error: TEXT.waitingForDoctor },
      });
      expect(await drLee.post('/cases/CA-2024-077/advance')).toMatchObject({
        status: 409,
        body: { error: TEXT.complete },
      });
    });

    it('answers 409 on hold to everybody, owners and others alike', async () => {
      const theCase = await caseAt('Digital Planning');
      expect((await admin.post(`/cases/${theCase.id}/hold`)).body.onHold).toBe(true);
      const before = await snapshot(theCase.id);
      for (const client of [admin, designer, rep, tech, drLee]) {
        expect(
          await client.post(`/cases/${theCase.id}/advance`, { fromStatus: 'Digital Planning' }),
        ).toMatchObject({
          status: 409,
          body: { error: TEXT.onHold },
        });
      }
      await expectUnchanged(before);
      expect((await admin.post(`/cases/${theCase.id}/resume`)).body.onHold).toBe(false);
      expect((await designer.post(`/cases/${theCase.id}/advance`)).body.status).toBe('Doctor Approval');
    });

    it('answers 409 when fromStatus is no longer the status, so a double click never skips a stage', async () => {
      const theCase = await caseAt('Model Printing');
      const [first, second] = await Promise.all([
        tech.post(`/cases/${theCase.id}/advance`, { fromStatus: 'Model Printing' }),
        admin.post(`/cases/${theCase.id}/advance`, { fromStatus: 'Model Printing' }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      const refused = first.status === 409 ? first : second;
      expect(refused.body).toEqual({ error: TEXT.concurrentChange });
      const before = await snapshot(theCase.id);
      expect(before.case.status).toBe('Thermoforming');
      expect(await tech.post(`/cases/${theCase.id}/advance`, { fromStatus: 'Model Printing' })).toMatchObject(
        {
          status: 409,
          body: { error: TEXT.concurrentChange },
        },
      );
      await expectUnchanged(before);
      // The internal name of the status the user saw is as good as its display name.
      const moved = await tech.post(`/cases/${theCase.id}/advance`, { fromStatus: 'Thermoforming' });
      expect(moved.body.status).toBe('Trimming & Polishing');
      expect(
        (await tech.post(`/cases/${theCase.id}/advance`, { fromStatus: 'TrimmingPolishing' })).body.status,
      ).toBe('Quality Check');
    });

    it('answers 409 when expectedVersion is stale', async () => {
      const theCase = await caseAt('Model Printing');
      await tech.post(`/cases/${theCase.id}/notes`, { text: 'Printer warming up' });
      const before = await snapshot(theCase.id);
      expect(
        await tech.post(`/cases/${theCase.id}/advance`, { expectedVersion: theCase.version }),
      ).toMatchObject({
        status: 409,
        body: { error: TEXT.concurrentChange },
      });
      expect(
        await tech.post(`/cases/${theCase.id}/advance`, { expectedVersion: before.case.version + 1 }),
      ).toMatchObject({
        status: 409,
        body: { error: TEXT.concurrentChange },
      });
      await expectUnchanged(before);
      const moved = await tech.post(`/cases/${theCase.id}/advance`, { expectedVersion: before.case.version });
      expect(moved).toMatchObject({
        status: 200,
        body: { status: 'Thermoforming', version: before.case.version + 1 },
      });
    });

    it("answers 404 for another doctor's case, before any version check", async () => {
      const theCase = await caseAt('Digital Planning');
      expect(await drPatel.post(`/cases/${theCase.id}/advance`, { fromStatus: 'Nope' })).toMatchObject({
        status: 404,
        body: { error: TEXT.notFound },
      });
      expect(await drPatel.post(`/cases/${theCase.id}/advance`, { expectedVersion: 0 })).toMatchObject({
        status: 404,
        body: { error: TEXT.notFound },
      });
    });
  });

  describe('POST /cases/{id}/doctor-approve', () => {
    it('lets the assigned doctor approve the plan: Model Printing', async () => {
      const theCase = await caseAt('Doctor Approval');
      const answer = await drLee.post(`/cases/${theCase.id}/doctor-approve`);
      expect(answer).toMatchObject({ status: 200, body: { status: 'Model Printing' } });
      expect(step(answer.body, 'Doctor Approval')).toMatchObject({ completed: true });
    });

    it('refuses anybody else: 403 for staff, 404 for another doctor', async () => {
      const theCase = await caseAt('Doctor Approval');
      const before = await snapshot(theCase.id);
      for (const client of [admin, rep, designer, tech]) {
        expect(await client.post(`/cases/${theCase.id}/doctor-approve`)).toMatchObject({
          status: 403,
          body: { error: TEXT.onlyAssignedDoctor },
        });
      }
      expect(await drPatel.post(`/cases/${theCase.id}/doctor-approve`)).toMatchObject({
        status: 404,
        body: { error: TEXT.notFound },
      });
      await expectUnchanged(before);
    });

    it('only at Doctor Approval and not on hold', async () => {
      const planned = await caseAt('Digital Planning');
      expect(await drLee.post(`/cases/${planned.id}/doctor-approve`)).toMatchObject({
        status: 409,
        body: { error: TEXT.onlyAtDoctorApproval },
      });
      expect(await admin.post(`/cases/${planned.id}/doctor-approve`)).toMatchObject({
        status: 409,
        body: { error: TEXT.onlyAtDoctorApproval },
      });
      const held = await caseAt('Doctor Approval');
      await admin.post(`/cases/${held.id}/hold`);
      const before = await snapshot(held.id);
      expect(await drLee.post(`/cases/${held.id}/doctor-approve`)).toMatchObject({
        status: 409,
        body: { error: TEXT.onHold },
      });
      expect(await drLee.post(`/cases/${held.id}/request-changes`, { comment: 'x' })).toMatchObject({
        status: 409,
        body: { error: TEXT.onHold },
      });
      await expectUnchanged(before);
    });
  });

  describe('POST /cases/{id}/request-changes', () => {
    it('sends the plan back to Digital Planning with the comment as a note', async () => {
      const theCase = await caseAt('Doctor Approval');
      const answer = await drLee.post(`/cases/${theCase.id}/request-changes`, {
        comment: '  Move tooth 11 less.  ',
      });
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('Digital Planning');
      expect(lastNote(answer.body)).toMatchObject({
        text: 'Changes requested: Move tooth 11 less.',
        author: 'dr.lee',
        role: 'Doctor',
      });
      expect(step(answer.body, 'Digital Planning')).toMatchObject({ completed: false, date: null });
      expect(step(answer.body, 'Doctor Approval')).toMatchObject({ completed: false });
      // Back in the designer's hands.
      expect((await designer.post(`/cases/${theCase.id}/advance`)).body.status).toBe('Doctor Approval');
    });

    it('needs a comment', async () => {
      const theCase = await caseAt('Doctor Approval');
      const before = await snapshot(theCase.id);
      for (const body of [{}, { comment: '' }, { comment: '   ' }]) {
        expect(await drLee.post(`/cases/${theCase.id}/request-changes`, body)).toMatchObject({
          status: 400,
          body: { error: 'A comment is required to request changes.' },
        });
      }
      await expectUnchanged(before);
    });

    it('is for the assigned doctor only, at Doctor Approval only', async () => {
      const theCase = await caseAt('Doctor Approval');
      for (const client of [admin, designer]) {
        expect(await client.post(`/cases/${theCase.id}/request-changes`, { comment: 'x' })).toMatchObject({
          status: 403,
          body: { error: TEXT.onlyAssignedDoctor },
        });
      }
      expect((await drPatel.post(`/cases/${theCase.id}/request-changes`, { comment: 'x' })).status).toBe(404);
      const printing = await caseAt('Model Printing');
      expect(await drLee.post(`/cases/${printing.id}/request-changes`, { comment: 'x' })).toMatchObject({
        status: 409,
        body: { error: TEXT.onlyAtDoctorApproval },
      });
    });
  });

  describe('POST /cases/{id}/hold and /resume', () => {
    it('toggles onHold at any status; holding twice or resuming a running case is 409', async () => {
      for (const status of ['Pending Approval', 'Thermoforming'] as const) {
        const theCase = await caseAt(status);
        const held = await admin.post(`/cases/${theCase.id}/hold`);
        expect(held).toMatchObject({
          status: 200,
          body: { onHold: true, status, version: theCase.version + 1 },
        });
        expect(await admin.post(`/cases/${theCase.id}/hold`)).toMatchObject({
          status: 409,
          body: { error: 'This case is already on hold.' },
        });
        const resumed = await admin.post(`/cases/${theCase.id}/resume`);
        expect(resumed).toMatchObject({ status: 200, body: { onHold: false, status } });
        expect(await admin.post(`/cases/${theCase.id}/resume`)).toMatchObject({
          status: 409,
          body: { error: 'This case is not on hold.' },
        });
        const types = (await admin.get(`/cases/${theCase.id}/history`)).body.map(
          (e: { type: string }) => e.type,
        );
        expect(types.slice(-2)).toEqual(['CaseHeld', 'CaseResumed']);
      }
    });

    it('is for managers only', async () => {
      const theCase = await caseAt('Digital Planning');
      for (const client of [rep, designer, tech, drLee]) {
        expect(await client.post(`/cases/${theCase.id}/hold`)).toMatchObject({
          status: 403,
          body: { error: TEXT.managerOnly },
        });
      }
      await admin.post(`/cases/${theCase.id}/hold`);
      for (const client of [rep, designer, tech, drLee]) {
        expect(await client.post(`/cases/${theCase.id}/resume`)).toMatchObject({
          status: 403,
          body: { error: TEXT.managerOnly },
        });
      }
      expect((await drPatel.post(`/cases/${theCase.id}/resume`)).status).toBe(404);
      expect((await admin.get(`/cases/${theCase.id}`)).body.onHold).toBe(true);
    });
  });

  describe('POST /cases/{id}/notes', () => {
    it('lets everybody who can see the case add a trimmed note: 201 with the case', async () => {
      const theCase = await caseAt('Digital Planning');
      for (const client of [admin, rep, designer, tech, drLee]) {
        const answer = await client.post(`/cases/${theCase.id}/notes`, {
          text: `  From ${client.user!.username}  `,
        });
        expect(answer.status).toBe(201);
        expect(lastNote(answer.body)).toMatchObject({
          author: client.user!.username,
          role: client.user!.role,
          text: `From ${client.user!.username}`,
          timestamp: expect.any(String),
        });
      }
      const notes = (await admin.get(`/cases/${theCase.id}`)).body.notes;
      expect(new Set(notes.map((note: { id: string }) => note.id)).size).toBe(notes.length);
    });

    it('refuses an empty note with 400 and a doctor who cannot see the case with 404', async () => {
      const theCase = await caseAt('Digital Planning');
      const before = await snapshot(theCase.id);
      for (const body of [{}, { text: '' }, { text: ' \t\n ' }]) {
        expect(await admin.post(`/cases/${theCase.id}/notes`, body)).toMatchObject({
          status: 400,
          body: { error: 'Note cannot be empty.' },
        });
      }
      expect(await drPatel.post(`/cases/${theCase.id}/notes`, { text: 'peek' })).toMatchObject({
        status: 404,
        body: { error: TEXT.notFound },
      });
      await expectUnchanged(before);
    });
  });

  describe('PUT /cases/{id}/pricing', () => {
    it('takes numbers and numeric strings; anything else is stored as absent', async () => {
      const theCase = await caseAt('Pending Approval');
      const answer = await rep.put(`/cases/${theCase.id}/pricing`, {
        price: '99.90',
        upperSheets: '12',
        lowerSheets: 'abc',
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ price: 99.9, upperSheets: 12, lowerSheets: null });
      const cleared = await admin.put(`/cases/${theCase.id}/pricing`, {
        price: '',
        upperSheets: 7,
        lowerSheets: ' 5 ',
      });
      expect(cleared.body).toMatchObject({ price: null, upperSheets: 7, lowerSheets: 5 });
      const absent = await admin.put(`/cases/${theCase.id}/pricing`, {});
      expect(absent.body).toMatchObject({ price: null, upperSheets: null, lowerSheets: null });
      expect(await admin.put(`/cases/${theCase.id}/pricing`, { price: -1 })).toMatchObject({
        status: 400,
        body: { error: 'Price must be between 0 and 1000000.' },
      });
    });

    it('is for Managers and Representatives', async () => {
      const theCase = await caseAt('Digital Planning');
      const before = await snapshot(theCase.id);
      for (const client of [designer, tech, drLee]) {
        expect(await client.put(`/cases/${theCase.id}/pricing`, { price: 1 })).toMatchObject({
          status: 403,
          body: { error: TEXT.pricingRoles },
        });
      }
      expect((await drPatel.put(`/cases/${theCase.id}/pricing`, { price: 1 })).status).toBe(404);
      await expectUnchanged(before);
    });
  });

  describe('PUT /cases/{id}/simulation', () => {
    it('saves trimmed http(s) links at Digital Planning, each also as a file entry', async () => {
      const theCase = await caseAt('Digital Planning');
      for (const client of [designer, admin]) {
        const answer = await client.put(`/cases/${theCase.id}/simulation`, {
          simulationVideoUrl: `  https://sim.example/${client.user!.username}.mp4 `,
          simulationExternalLink: 'http://sim.example/3d',
        });
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({
          simulationVideoUrl: `https://sim.example/${client.user!.username}.mp4`,
          simulationExternalLink: 'http://sim.example/3d',
        });
        expect(answer.body.files).toHaveLength(2);
      }
      const emptied = await designer.put(`/cases/${theCase.id}/simulation`, {
        simulationVideoUrl: 'https://sim.example/v.mp4',
        simulationExternalLink: '',
      });
      expect(emptied.body.files.map((file: { type: string }) => file.type)).toEqual(['Simulation Video']);
    });

    it('refuses a link that is not http(s) with 400', async () => {
      const theCase = await caseAt('Digital Planning');
      const before = await snapshot(theCase.id);
      for (const url of [
        'ftp://sim.example/v.mp4',
        'javascript:alert(1)',
        'not a url',
        'file:///etc/passwd',
      ]) {
        expect(
          await designer.put(`/cases/${theCase.id}/simulation`, { simulationVideoUrl: url }),
        ).toMatchObject({
          status: 400,
          body: { error: 'Simulation Video URL must be an http(s) URL.' },
        });
      }
      await expectUnchanged(before);
    });

    it('only at Digital Planning and not on hold', async () => {
      const links = { simulationVideoUrl: 'https://sim.example/v.mp4' };
      for (const status of ['Pending Approval', 'Doctor Approval', 'Model Printing'] as const) {
        const theCase = await caseAt(status);
        expect(await designer.put(`/cases/${theCase.id}/simulation`, links)).toMatchObject({
          status: 409,
          body: { error: TEXT.onlyAtDigitalPlanning },
        });
      }
      const held = await caseAt('Digital Planning');
      await admin.post(`/cases/${held.id}/hold`);
      expect(await designer.put(`/cases/${held.id}/simulation`, links)).toMatchObject({
        status: 409,
        body: { error: TEXT.onHold },
      });
    });

    it('is for Designers and Managers', async () => {
      const theCase = await caseAt('Digital Planning');
      for (const client of [rep, tech, drLee]) {
        expect(
          await client.put(`/cases/${theCase.id}/simulation`, { simulationVideoUrl: 'https://x.example' }),
        ).toMatchObject({
          status: 403,
          body: { error: TEXT.simulationRoles },
        });
      }
    });
  });

  describe('PUT /cases/{id}/stages/{status}/assignee', () => {
    it('reassigns a stage to a lab user, adding a note and the technician', async () => {
      const theCase = await caseAt('Model Printing');
      const answer = await admin.put(`/cases/${theCase.id}/stages/Model%20Printing/assignee`, {
        assignee: 'TECH',
      });
      expect(answer.status).toBe(200);
      expect(step(answer.body, 'Model Printing').assignedTo).toBe('tech');
      expect(answer.body.assignedTechnicians).toEqual(['tech']);
      expect(lastNote(answer.body)).toMatchObject({
        text: 'Model Printing reassigned to tech by admin.',
        author: 'admin',
      });
    });

    it('takes the display name (URL-encoded) and the internal name of the status', async () => {
      const theCase = await caseAt('Digital Planning');
      const internal = await admin.put(`/cases/${theCase.id}/stages/TrimmingPolishing/assignee`, {
        assignee: 'tech',
      });
      expect(internal.status).toBe(200);
      expect(step(internal.body, 'Trimming & Polishing').assignedTo).toBe('tech');
      const display = await admin.put(`/cases/${theCase.id}/stages/Trimming%20%26%20Polishing/assignee`, {
        assignee: 'designer',
      });
      expect(display.status).toBe(200);
      expect(step(display.body, 'Trimming & Polishing').assignedTo).toBe('designer');
      expect(lastNote(display.body).text).toBe('Trimming & Polishing reassigned to designer by admin.');
      const back = await admin.put(`/cases/${theCase.id}/stages/Trimming%20%26%20Polishing/assignee`, {
        assignee: 'Tech Team',
      });
      expect(step(back.body, 'Trimming & Polishing').assignedTo).toBe('Tech Team');
    });

    it('refuses an unknown stage or a non-lab assignee with 400', async () => {
      const theCase = await caseAt('Digital Planning');
      const before = await snapshot(theCase.id);
      expect(
        await admin.put(`/cases/${theCase.id}/stages/Painting/assignee`, { assignee: 'tech' }),
      ).toMatchObject({
        status: 400,
        body: { error: 'Unknown workflow stage "Painting".' },
      });
      expect(
        await admin.put(`/cases/${theCase.id}/stages/Thermoforming/assignee`, { assignee: 'dr.lee' }),
      ).toMatchObject({
        status: 400,
        body: { error: '"dr.lee" is not a lab user.' },
      });
      expect(
        await admin.put(`/cases/${theCase.id}/stages/Thermoforming/assignee`, { assignee: 'ghost' }),
      ).toMatchObject({
        status: 400,
        body: { error: '"ghost" is not a lab user.' },
      });
      expect(await admin.put(`/cases/${theCase.id}/stages/Thermoforming/assignee`, {})).toMatchObject({
        status: 400,
        body: { error: 'Choose who the stage is assigned to.' },
      });
      await expectUnchanged(before);
    });

    it('is for managers only, and not on a held case', async () => {
      const theCase = await caseAt('Model Printing');
      for (const client of [rep, designer, tech, drLee]) {
        expect(
          await client.put(`/cases/${theCase.id}/stages/Thermoforming/assignee`, { assignee: 'tech' }),
        ).toMatchObject({
          status: 403,
          body: { error: TEXT.managerOnly },
        });
      }
      await admin.post(`/cases/${theCase.id}/hold`);
      const before = await snapshot(theCase.id);
      for (const client of [admin, tech]) {
        expect(
          await client.put(`/cases/${theCase.id}/stages/Thermoforming/assignee`, { assignee: 'tech' }),
        ).toMatchObject({
          status: 409,
          body: { error: TEXT.onHold },
        });
      }
      await expectUnchanged(before);
    });
  });

  describe('POST /cases/{id}/qr', () => {
    it('lets a technician take an unassigned stage by generating the QR', async () => {
      const theCase = await caseAt('Model Printing');
      expect(step(theCase, 'Model Printing').assignedTo).toBe('Tech Team');
      const answer = await tech.post(`/cases/${theCase.id}/qr`);
      expect(answer.status).toBe(200);
      expect(answer.body.payload).toBe(theCase.id);
      expect(step(answer.body.case, 'Model Printing').assignedTo).toBe('tech');
      expect(answer.body.case.assignedTechnicians).toEqual(['tech']);
      expect(lastNote(answer.body.case)).toMatchObject({
        text: 'tech took Model Printing by generating the case QR code.',
        author: 'tech',
      });
      // Showing it again changes nothing.
      const again = await tech.post(`/cases/${theCase.id}/qr`);
      expect(again.body.case.version).toBe(answer.body.case.version);
    });

    it('only adds a note when another technician holds the stage', async () => {
      expect(
        (await admin.post('/users', { username: 'tech2', password: 'Lathe-Orbit-3333', role: 'Technician' }))
          .status,
      ).toBe(201);
      const theCase = await caseAt('Model Printing');
      await admin.put(`/cases/${theCase.id}/stages/Model%20Printing/assignee`, { assignee: 'tech2' });
      const answer = await tech.post(`/cases/${theCase.id}/qr`);
      expect(answer.status).toBe(200);
      expect(step(answer.body.case, 'Model Printing').assignedTo).toBe('tech2');
      expect(answer.body.case.assignedTechnicians).toEqual(['tech2']);
      expect(lastNote(answer.body.case).text).toBe(
        'tech generated the case QR code; Model Printing stays assigned to tech2.',
      );
    });

    it('shows the QR to a manager and to the stage owners without changing the case', async () => {
      const theCase = await caseAt('Digital Planning');
      for (const client of [admin, designer]) {
        const answer = await client.post(`/cases/${theCase.id}/qr`);
        expect(answer).toMatchObject({
          status: 200,
          body: { payload: theCase.id, case: { version: theCase.version } },
        });
      }
    });

    it('refuses doctors and roles that do not own the current stage with 403', async () => {
      const theCase = await caseAt('Model Printing');
      for (const client of [drLee, designer, rep]) {
        expect(await client.post(`/cases/${theCase.id}/qr`)).toMatchObject({
          status: 403,
          body: { error: TEXT.qrRoles },
        });
      }
      expect((await drPatel.post(`/cases/${theCase.id}/qr`)).status).toBe(404);
      expect((await admin.get(`/cases/${theCase.id}`)).body.version).toBe(theCase.version);
    });

    it('has no QR before approval, and a technician takes nothing on a held case', async () => {
      const pending = await caseAt('Pending Approval');
      expect(await admin.post(`/cases/${pending.id}/qr`)).toMatchObject({
        status: 409,
        body: { error: TEXT.qrNotYet },
      });
      const held = await caseAt('Thermoforming');
      await admin.post(`/cases/${held.id}/hold`);
      const before = await snapshot(held.id);
      expect((await tech.post(`/cases/${held.id}/qr`)).status).toBe(200);
      await expectUnchanged(before);
    });
  });

  describe('POST /cases/{id}/staging/{n}/{action}', () => {
    it('starts, completes, re-opens and resets a stage; any other transition is 409', async () => {
      const theCase = await caseAt('Completed');
      const url = (n: number, action: string) => `/cases/${theCase.id}/staging/${n}/${action}`;
      const stage = (answer: { body: any }, n: number) => answer.body.staging[n - 1];

      const started = await drLee.post(url(1, 'start'));
      expect(started.status).toBe(200);
      expect(stage(started, 1)).toMatchObject({
        stageNumber: 1,
        status: 'In Progress',
        startDate: expect.any(String),
        endDate: null,
      });
      expect(await drLee.post(url(1, 'start'))).toMatchObject({
        status: 409,
        body: { error: 'Stage 1 is In Progress and cannot be started.' },
      });
      expect(await drLee.post(url(1, 'reopen'))).toMatchObject({
        status: 409,
        body: { error: 'Stage 1 is In Progress and cannot be re-opened.' },
      });

      const completed = await drLee.post(url(1, 'complete'));
      expect(stage(completed, 1)).toMatchObject({
        status: 'Completed',
        startDate: stage(started, 1).startDate,
        endDate: expect.any(String),
      });
      expect(await drLee.post(url(1, 'complete'))).toMatchObject({
        status: 409,
        body: { error: 'Stage 1 is Completed and cannot be completed.' },
      });
      expect(await drLee.post(url(2, 'complete'))).toMatchObject({
        status: 409,
        body: { error: 'Stage 2 is Not Started and cannot be completed.' },
      });
      expect(await drLee.post(url(2, 'reopen'))).toMatchObject({
        status: 409,
        body: { error: 'Stage 2 is Not Started and cannot be re-opened.' },
      });

      const reopened = await admin.post(url(1, 'reopen'));
      expect(stage(reopened, 1)).toMatchObject({
        status: 'In Progress',
        startDate: stage(started, 1).startDate,
        endDate: null,
      });
      const reset = await admin.post(url(1, 'reset'));
      expect(stage(reset, 1)).toEqual({
        stageNumber: 1,
        status: 'Not Started',
        startDate: null,
        endDate: null,
      });
      expect((await admin.post(url(2, 'reset'))).status).toBe(200);
      expect((await admin.post(url(2, 'start'))).body.staging[1].status).toBe('In Progress');
    });

    it('is for the assigned doctor and managers: 403 for staff, 404 for another doctor', async () => {
      const theCase = await caseAt('Completed');
      const before = await snapshot(theCase.id);
      for (const client of [tech, rep, designer]) {
        for (const action of ['start', 'reset']) {
          expect(await client.post(`/cases/${theCase.id}/staging/1/${action}`)).toMatchObject({
            status: 403,
            body: { error: TEXT.stagingRoles },
          });
        }
      }
      expect(await drPatel.post(`/cases/${theCase.id}/staging/1/start`)).toMatchObject({
        status: 404,
        body: { error: TEXT.notFound },
      });
      await expectUnchanged(before);
      expect((await drLee.post('/cases/CA-2024-077/staging/4/complete')).body.staging[3].status).toBe(
        'Completed',
      );
    });

    it('refuses unknown stages and actions, and a case without staging', async () => {
      const theCase = await caseAt('Completed');
      expect(await drLee.post(`/cases/${theCase.id}/staging/7/start`)).toMatchObject({
        status: 404,
        body: { error: 'Stage 7 does not exist.' },
      });
      for (const n of ['0', '-1', 'abc', '1.5']) {
        expect(await drLee.post(`/cases/${theCase.id}/staging/${n}/start`)).toMatchObject({
          status: 400,
          body: { error: 'Stage must be a whole number from 1.' },
        });
      }
      expect(await drLee.post(`/cases/${theCase.id}/staging/1/explode`)).toMatchObject({
        status: 404,
        body: { error: 'Unknown staging action "explode".' },
      });
      expect(await drLee.post('/cases/CA-2024-001/staging/1/start')).toMatchObject({
        status: 409,
        body: { error: 'This case has no aligner staging.' },
      });
    });
  });

  describe('POST /scan', () => {
    it('opens a case from its QR (the plain id)', async () => {
      const qr = (await admin.post('/cases/CA-2024-001/qr')).body.payload;
      for (const [client, payload] of [
        [admin, qr],
        [tech, '  CA-2024-001 '],
        [drLee, 'CA-2024-001'],
      ] as const) {
        const answer = await client.post('/scan', { payload });
        expect(answer.status).toBe(200);
        expect(answer.body.kind).toBe('case');
        expect(answer.body.case).toMatchObject({ id: 'CA-2024-001', patientName: 'Emma Thompson' });
      }
    });

    it('answers 404 Invalid QR Code for an unknown or hidden case', async () => {
      for (const [client, payload] of [
        [admin, 'CA-1999-999'],
        [admin, 'hello world'],
        [admin, '{"caseId":"CA-2024-077"}'],
        [admin, JSON.stringify({ caseId: 'CA-1999-999', stage: 1 })],
        [admin, JSON.stringify({ caseId: 'CA-2024-077', stage: 21 })],
        [admin, JSON.stringify({ caseId: 'CA-2024-001', stage: 1 })],
        [drPatel, 'CA-2024-001'],
        [drPatel, JSON.stringify({ caseId: 'CA-2024-077', stage: 5 })],
      ] as const) {
        const answer = await client.post('/scan', { payload });
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ error: TEXT.invalidQr });
      }
    });

    it('starts a stage from its QR and completes the one before', async () => {
      const theCase = await caseAt('Completed');
      const scan = (client: ApiClient, stage: number | string) =>
        client.post('/scan', { payload: JSON.stringify({ caseId: theCase.id, stage }) });

      const first = await scan(drLee, 1);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ kind: 'stage', started: 1, completed: null });
      expect(first.body.case.staging[0].status).toBe('In Progress');

      const second = await scan(drLee, 2);
      expect(second.body).toMatchObject({ kind: 'stage', started: 2, completed: 1 });
      expect(second.body.case.staging.slice(0, 3).map((s: { status: string }) => s.status)).toEqual([
        'Completed',
        'In Progress',
        'Not Started',
      ]);

      const before = await snapshot(theCase.id);
      expect(await scan(drLee, 2)).toMatchObject({
        status: 409,
        body: { error: 'Stage 2 is already started or completed.' },
      });
      expect(await scan(admin, 1)).toMatchObject({
        status: 409,
        body: { error: 'Stage 1 is already started or completed.' },
      });
      expect(await scan(tech, 3)).toMatchObject({ status: 403, body: { error: TEXT.stagingRoles } });
      await expectUnchanged(before);

      const byManager = await scan(admin, '3');
      expect(byManager.body).toMatchObject({ kind: 'stage', started: 3, completed: 2 });
    });
  });

  describe('concurrency', () => {
    it('refuses any command based on a stale expectedVersion with 409 and changes nothing', async () => {
      const theCase = await caseAt('Digital Planning');
      await admin.post(`/cases/${theCase.id}/notes`, { text: 'newer' });
      const before = await snapshot(theCase.id);
      const stale = { expectedVersion: theCase.version };
      const attempts = [
        admin.post(`/cases/${theCase.id}/notes`, { text: 'late', ...stale }),
        admin.post(`/cases/${theCase.id}/hold`, stale),
        rep.put(`/cases/${theCase.id}/pricing`, { price: 5, ...stale }),
        designer.put(`/cases/${theCase.id}/simulation`, {
          simulationVideoUrl: 'https://x.example',
          ...stale,
        }),
        admin.put(`/cases/${theCase.id}/stages/Thermoforming/assignee`, { assignee: 'tech', ...stale }),
        designer.post(`/cases/${theCase.id}/advance`, stale),
        admin.put(`/cases/${theCase.id}`, { patientName: 'late', ...stale }),
      ];
      for (const answer of await Promise.all(attempts)) {
        expect(answer).toMatchObject({ status: 409, body: { error: TEXT.concurrentChange } });
      }
      await expectUnchanged(before);
      const current = await admin.post(`/cases/${theCase.id}/hold`, { expectedVersion: before.case.version });
      expect(current).toMatchObject({ status: 200, body: { onHold: true } });
    });
  });
});
