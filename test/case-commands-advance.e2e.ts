import { TEXT, ROUTE, type RouteStatus, step, useCaseCommandLab } from './support/case-commands';
import type { ApiClient } from './support/http';

/** Case commands over HTTP: moving a case on, holding it, and stale versions. */
describe('case commands over HTTP', () => {
  const { admin, rep, designer, tech, drLee, drPatel, caseAt, snapshot, expectUnchanged } =
    useCaseCommandLab();

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
