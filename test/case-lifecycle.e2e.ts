import { useDemoUsers } from './support/demo-users';
import type { ApiClient } from './support/http';

/** The whole life of a case over HTTP, by the roles the spec allows, refused for the others. */
describe('case lifecycle over HTTP', () => {
  const { admin, rep, designer, tech, drLee, drPatel } = useDemoUsers();

  it('goes from a doctor-created case to 20 aligner stages, each step by a permitted role', async () => {
    const created = await drLee.post('/cases', {
      patientName: 'Ada Lovelace',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles Dental',
      priority: 'High',
      treatmentPlanNotes: 'Close the gap.',
      upperSheets: 20,
      lowerSheets: '18',
      price: '1499.90',
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    expect(id).toMatch(/^CA-\d{4}-\d{3}$/);
    expect(created.body).toMatchObject({
      status: 'Pending Approval',
      assignedDoctorUsername: 'dr.lee',
      type: 'Clear Aligner',
      onHold: false,
      assignedTechnicians: ['Unassigned'],
      price: 1499.9,
      upperSheets: 20,
      lowerSheets: 18,
      fee: { amount: 50, currency: 'USD' },
      version: 1,
    });
    expect(created.body.notes[0].text).toBe('Case created by Doctor and submitted for approval.');

    // The other doctor cannot see it at all, and nobody can advance it before approval.
    expect((await drPatel.get(`/cases/${id}`)).status).toBe(404);
    expect(await admin.post(`/cases/${id}/advance`)).toMatchObject({
      status: 409,
      body: { error: 'This case must be approved by a manager before proceeding.' },
    });
    expect((await rep.post(`/cases/${id}/approve`, { doctorUsername: 'dr.lee' })).status).toBe(403);

    const approved = await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.lee' });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('Digital Planning');
    expect(
      approved.body.alignerWorkflow.slice(0, 3).map((step: { completed: boolean }) => step.completed),
    ).toEqual([true, true, false]);

    expect(await tech.post(`/cases/${id}/advance`)).toMatchObject({
      status: 403,
      body: { error: 'This stage can only be completed by: Designer or Manager' },
    });
    const links = await designer.put(`/cases/${id}/simulation`, {
      simulationVideoUrl: '  https://sim.example/video.mp4 ',
      simulationExternalLink: 'https://sim.example/3d',
    });
    expect(links.status).toBe(200);
    expect(links.body.simulationVideoUrl).toBe('https://sim.example/video.mp4');
    expect(links.body.files.map((file: { type: string }) => file.type).sort()).toEqual([
      'External Link',
      'Simulation Video',
    ]);

    expect(
      (await designer.post(`/cases/${id}/advance`, { fromStatus: 'Digital Planning' })).body.status,
    ).toBe('Doctor Approval');
    expect(await admin.post(`/cases/${id}/advance`)).toMatchObject({
      status: 409,
      body: { error: "Waiting for doctor's approval before proceeding." },
    });
    expect((await admin.post(`/cases/${id}/doctor-approve`)).status).toBe(403);
    expect((await drPatel.post(`/cases/${id}/doctor-approve`)).status).toBe(404);
    expect((await drLee.post(`/cases/${id}/doctor-approve`)).body.status).toBe('Model Printing');

    const manufacturing: [ApiClient, string, string][] = [
      [tech, 'Model Printing', 'Thermoforming'],
      [tech, 'Thermoforming', 'Trimming & Polishing'],
      [tech, 'Trimming & Polishing', 'Quality Check'],
      [tech, 'Quality Check', 'Packaging & Labeling'],
      [rep, 'Packaging & Labeling', 'Delivery to Doctor'],
      [rep, 'Delivery to Doctor', 'Completed'],
    ];
    for (const [worker, from, to] of manufacturing) {
      const wrong = worker === tech ? rep : tech;
      const refused = await wrong.post(`/cases/${id}/advance`);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(
        `This stage can only be completed by: ${worker === tech ? 'Technician' : 'Representative'} or Manager`,
      );
      const moved = await worker.post(`/cases/${id}/advance`, { fromStatus: from });
      expect(moved.status).toBe(200);
      expect(moved.body.status).toBe(to);
    }

    const done = await drLee.get(`/cases/${id}`);
    expect(done.body.status).toBe('Completed');
    expect(done.body.staging).toHaveLength(20);
    expect(done.body.stageWearTimeInDays).toBe(15);
    expect(
      done.body.alignerWorkflow.every(
        (step: { completed: boolean; date: string }) => step.completed && step.date,
      ),
    ).toBe(true);
    expect(await admin.post(`/cases/${id}/advance`)).toMatchObject({
      status: 409,
      body: { error: 'This case is complete.' },
    });

    // A stage QR starts its stage through the scan endpoint.
    const scan = await drLee.post('/scan', { payload: JSON.stringify({ caseId: id, stage: 1 }) });
    expect(scan.status).toBe(200);
    expect(scan.body).toMatchObject({ kind: 'stage', started: 1, completed: null });
    expect(scan.body.case.staging[0]).toMatchObject({ stageNumber: 1, status: 'In Progress' });
    expect(await drLee.post('/scan', { payload: JSON.stringify({ caseId: id, stage: 1 }) })).toMatchObject({
      status: 409,
      body: { error: 'Stage 1 is already started or completed.' },
    });
    const second = await drLee.post('/scan', { payload: JSON.stringify({ caseId: id, stage: 2 }) });
    expect(second.body).toMatchObject({ kind: 'stage', started: 2, completed: 1 });
    expect(second.body.case.staging[0].status).toBe('Completed');
    expect((await drPatel.post('/scan', { payload: JSON.stringify({ caseId: id, stage: 3 }) })).body).toEqual(
      {
        error: 'Invalid QR Code',
      },
    );

    const history = await admin.get(`/cases/${id}/history`);
    expect(history.status).toBe(200);
    const actors = new Set(
      history.body.map((entry: { actor: { username: string } }) => entry.actor.username),
    );
    expect([...actors].sort()).toEqual(['admin', 'designer', 'dr.lee', 'rep', 'tech']);
    expect(history.body.map((entry: { version: number }) => entry.version)).toEqual(
      history.body.map((_: unknown, index: number) => index + 1),
    );
    expect(history.body[0]).toMatchObject({
      type: 'CaseCreated',
      actor: { username: 'dr.lee', role: 'Doctor' },
    });
  });

  it('keeps stream versions contiguous and loses nothing under 20 simultaneous commands', async () => {
    const created = await rep.post('/cases', { patientName: 'P', doctorName: 'D', clinicName: 'C' });
    const id = created.body.id;
    await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.patel' });
    const commands = Array.from({ length: 20 }, (_, index) => {
      switch (index % 4) {
        case 0:
          return admin.post(`/cases/${id}/notes`, { text: `note ${index}` });
        case 1:
          return designer.post(`/cases/${id}/advance`, { fromStatus: 'Digital Planning' });
        case 2:
          return admin.post(`/cases/${id}/${index % 8 === 2 ? 'hold' : 'resume'}`);
        default:
          return rep.put(`/cases/${id}/pricing`, { price: index, upperSheets: index, lowerSheets: 1 });
      }
    });
    const answers = await Promise.all(commands);
    for (const answer of answers) expect([200, 201, 409]).toContain(answer.status);
    const notes = answers.filter((_, index) => index % 4 === 0);
    expect(notes.every((answer) => answer.status === 201)).toBe(true);
    const advances = answers.filter((_, index) => index % 4 === 1 && _.status === 200);
    expect(advances.length).toBeLessThanOrEqual(1);

    const history = (await admin.get(`/cases/${id}/history`)).body as { version: number; type: string }[];
    expect(history.map((entry) => entry.version)).toEqual(history.map((_, index) => index + 1));
    expect(history.filter((entry) => entry.type === 'NoteAdded')).toHaveLength(5);
    expect(history.filter((entry) => entry.type === 'StageAdvanced')).toHaveLength(advances.length);
    const final = (await admin.get(`/cases/${id}`)).body;
    expect(final.version).toBe(history.length);
    expect(final.notes.filter((note: { text: string }) => note.text.startsWith('note '))).toHaveLength(5);
  });
  it('gives every one of many simultaneous new cases its own id, never a 409', async () => {
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, index) =>
        rep.post('/cases', { patientName: `Rush ${index}`, doctorName: 'D', clinicName: 'C' }),
      ),
    );
    expect(answers.map((answer) => answer.status).filter((status) => status !== 201)).toEqual([]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(150);
  }, 120_000);
});
