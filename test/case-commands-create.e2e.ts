import { TEXT, useCaseCommandLab } from './support/case-commands';

/** Case commands over HTTP: creating, editing and deleting a case. */
describe('case commands over HTTP', () => {
  const { admin, rep, designer, tech, drLee, drPatel, caseAt, snapshot, expectUnchanged } =
    useCaseCommandLab();

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
});
