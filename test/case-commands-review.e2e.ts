import { TEXT, lastNote, step, useCaseCommandLab } from './support/case-commands';

/** Case commands over HTTP: the manager's and the doctor's reviews. */
describe('case commands over HTTP', () => {
  const { admin, rep, designer, tech, drLee, drPatel, caseAt, snapshot, expectUnchanged } =
    useCaseCommandLab();

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
});
