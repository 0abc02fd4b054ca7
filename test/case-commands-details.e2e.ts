import { TEXT, lastNote, useCaseCommandLab } from './support/case-commands';

/** Case commands over HTTP: notes, pricing and simulation links. */
describe('case commands over HTTP', () => {
  const { admin, rep, designer, tech, drLee, drPatel, caseAt, snapshot, expectUnchanged } =
    useCaseCommandLab();

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
});
