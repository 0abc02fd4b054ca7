import { TEXT, lastNote, step, useCaseCommandLab } from './support/case-commands';
import type { ApiClient } from './support/http';

/** Case commands over HTTP: stage assignees, QR codes, aligner staging and scans. */
describe('case commands over HTTP', () => {
  const { admin, rep, designer, tech, drLee, drPatel, caseAt, snapshot, expectUnchanged } =
    useCaseCommandLab();

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
});
