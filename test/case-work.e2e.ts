import { CASE_TEXTS, CASE_WORK_TEXTS, UPLOAD_TEXTS } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { EventStore } from '../backend/src/event-store/event-store';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import { byUsername, caseAt } from './support/case-road';
import { useDemoUsers } from './support/demo-users';
import { download, PNG, upload } from './support/files';
import { LIVE_TEST_TIMEOUT_MS, SseStream } from './support/sse';

// Real file contents: the server checks uploads by their bytes.
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

jest.setTimeout(LIVE_TEST_TIMEOUT_MS);

describe('case work: files after creation, plan versions, remakes and refinements', () => {
  const users = useDemoUsers();
  const { admin, rep, designer, tech, drLee, drPatel } = users;

  /** A case dr.lee created (two sheets an arch), approved: at Digital Planning. */
  async function plannedCase(patientName = 'Ada Lovelace'): Promise<string> {
    const input = { patientName, upperSheets: 2, lowerSheets: 2 };
    return (await caseAt(byUsername(admin, drLee), 'Digital Planning', input, 'dr.lee')).id;
  }

  /** Walks a case from Digital Planning to Completed, each stage by a role that owns it. */
  async function complete(id: string): Promise<void> {
    expect((await designer.post(`/cases/${id}/advance`)).status).toBe(200);
    expect((await drLee.post(`/cases/${id}/doctor-approve`)).status).toBe(200);
    for (const client of [tech, tech, tech, tech, rep, rep]) {
      const answer = await client.post(`/cases/${id}/advance`);
      expect(answer.status).toBe(200);
    }
    expect((await admin.get(`/cases/${id}`)).body.status).toBe('Completed');
  }

  describe('POST /cases/{id}/files', () => {
    it('staff and the case doctor add their own uploads (PDF, photo); the case lists them', async () => {
      const id = await plannedCase();
      const pdf = await upload(drLee, PDF, 'referral.pdf', { type: 'Document' });
      expect(pdf.status).toBe(201);
      expect(pdf.body).toMatchObject({ name: 'referral.pdf', type: 'Document' });
      const added = await drLee.post(`/cases/${id}/files`, { files: [pdf.body] });
      expect(added.status).toBe(200);
      expect(added.body.files).toEqual([pdf.body]);

      const photo = await upload(tech, PNG, 'bite.png');
      expect(photo.body.type).toBe('Photo');
      const byTech = await tech.post(`/cases/${id}/files`, { files: [photo.body] });
      expect(byTech.status).toBe(200);
      expect(byTech.body.files.map((file: { name: string }) => file.name)).toEqual([
        'referral.pdf',
        'bite.png',
      ]);

      // Attached: whoever may see the case may read it, another doctor may not.
      expect((await download(admin, pdf.body.url)).bytes.equals(PDF)).toBe(true);
      expect((await download(drPatel, pdf.body.url)).status).toBe(404);
      const history = (await admin.get(`/cases/${id}/history`)).body;
      expect(history.filter((entry: { type: string }) => entry.type === 'FilesAdded')).toHaveLength(2);
    });

    it("someone else's upload, or one already in a case → 400; nothing is added", async () => {
      const id = await plannedCase();
      const other = await plannedCase('Other Patient');
      const mine = await upload(admin, PNG, 'mine.png');
      expect((await drLee.post(`/cases/${id}/files`, { files: [mine.body] })).body).toEqual({
        error: CASE_WORK_TEXTS.notYours,
      });
      expect((await admin.post(`/cases/${other}/files`, { files: [mine.body] })).status).toBe(200);
      const again = await admin.post(`/cases/${id}/files`, { files: [mine.body] });
      expect(again).toMatchObject({
        status: 400,
        body: { error: CASE_WORK_TEXTS.alreadyAttached('mine.png') },
      });
      const twice = await admin.post(`/cases/${other}/files`, { files: [mine.body] });
      expect(twice).toMatchObject({
        status: 400,
        body: { error: CASE_WORK_TEXTS.alreadyAttached('mine.png') },
      });
      expect((await admin.get(`/cases/${id}`)).body.files).toEqual([]);
      const photo = await upload(admin, PNG, 'bite.png');
      expect(
        await admin.post(`/cases/${id}/files`, { files: [{ ...photo.body, type: 'STL' }] }),
      ).toMatchObject({
        status: 400,
        body: { error: CASE_WORK_TEXTS.wrongType('bite.png', 'Photo') },
      });
    });

    it('another doctor: 404; bad bodies: 400 with clear texts', async () => {
      const id = await plannedCase();
      const pdf = await upload(drPatel, PDF, 'x.pdf');
      expect(await drPatel.post(`/cases/${id}/files`, { files: [pdf.body] })).toMatchObject({
        status: 404,
        body: { error: CASE_TEXTS.notFound },
      });
      expect((await admin.post('/cases/CA-2020-999/files', { files: [pdf.body] })).status).toBe(404);
      for (const [body, error] of [
        [{}, CASE_WORK_TEXTS.filesRequired],
        [{ files: 'x' }, CASE_WORK_TEXTS.filesRequired],
        [{ files: [] }, CASE_WORK_TEXTS.filesRequired],
        [{ files: [1] }, CASE_WORK_TEXTS.fileShape],
        [
          { files: [{ name: 'a', url: 'https://x.example/a.pdf', size: '1', type: 'Document' }] },
          CASE_WORK_TEXTS.notAnUpload('a'),
        ],
        [{ files: [{ ...pdf.body, type: 'Simulation Video' }] }, CASE_WORK_TEXTS.fileShape],
      ] as const) {
        const answer = await admin.post(`/cases/${id}/files`, body);
        expect({ body, status: answer.status, error: answer.body.error }).toEqual({
          body,
          status: 400,
          error,
        });
      }
    });

    it('uploads: a PDF is checked by content; a stale expectedVersion is a 409', async () => {
      const fake = await upload(admin, Buffer.from('not a pdf at all'), 'fake.pdf', { type: 'Document' });
      expect(fake).toEqual({ status: 400, body: { error: UPLOAD_TEXTS.notPdf } });
      const photoAsDocument = await upload(admin, PNG, 'x.pdf', { type: 'Document' });
      expect(photoAsDocument).toEqual({ status: 400, body: { error: UPLOAD_TEXTS.notPdf } });
      const id = await plannedCase();
      const pdf = await upload(admin, PDF, 'ok.pdf');
      const stale = await admin.post(`/cases/${id}/files`, { files: [pdf.body], expectedVersion: 1 });
      expect(stale).toMatchObject({ status: 409, body: { error: CASE_TEXTS.concurrentChange } });
      // Nothing was claimed by the refused command: the same upload can still be added.
      expect((await admin.post(`/cases/${id}/files`, { files: [pdf.body] })).status).toBe(200);
    });
  });

  describe('POST /cases/{id}/files/remove', () => {
    it('a Manager removes a file with a reason; the history keeps both events and the bytes stay', async () => {
      const id = await plannedCase();
      const pdf = await upload(drLee, PDF, 'wrong.pdf');
      await drLee.post(`/cases/${id}/files`, { files: [pdf.body] });
      for (const client of [drLee, designer, tech, rep]) {
        expect(
          await client.post(`/cases/${id}/files/remove`, { url: pdf.body.url, reason: 'Wrong patient' }),
        ).toMatchObject({
          status: 403,
          body: { error: CASE_TEXTS.managerOnly },
        });
      }
      expect(
        await drPatel.post(`/cases/${id}/files/remove`, { url: pdf.body.url, reason: 'x' }),
      ).toMatchObject({
        status: 404,
        body: { error: CASE_TEXTS.notFound },
      });
      expect(
        await admin.post(`/cases/${id}/files/remove`, { url: '/api/files/nope', reason: 'x' }),
      ).toMatchObject({
        status: 404,
        body: { error: CASE_WORK_TEXTS.fileNotFound },
      });
      expect(await admin.post(`/cases/${id}/files/remove`, { url: pdf.body.url })).toMatchObject({
        status: 400,
        body: { error: CASE_WORK_TEXTS.removeReasonRequired },
      });
      expect(
        await admin.post(`/cases/${id}/files/remove`, { url: pdf.body.url, reason: '  ' }),
      ).toMatchObject({
        status: 400,
        body: { error: CASE_WORK_TEXTS.removeReasonRequired },
      });
      expect(await admin.post(`/cases/${id}/files/remove`, { reason: 'x' })).toMatchObject({
        status: 400,
        body: { error: CASE_WORK_TEXTS.fileUrlRequired },
      });

      const removed = await admin.post(`/cases/${id}/files/remove`, {
        url: pdf.body.url,
        reason: 'Wrong patient',
      });
      expect(removed.status).toBe(200);
      expect(removed.body.files).toEqual([]);
      const history = (await admin.get(`/cases/${id}/history`)).body as { type: string; data: unknown }[];
      expect(history.map((entry) => entry.type).slice(-2)).toEqual(['FilesAdded', 'FileRemoved']);
      expect(history.at(-1)!.data).toEqual({ url: pdf.body.url, reason: 'Wrong patient' });
      expect((await download(admin, pdf.body.url)).bytes.equals(PDF)).toBe(true);
      // Gone from the list: a second removal finds nothing.
      expect((await admin.post(`/cases/${id}/files/remove`, { url: pdf.body.url, reason: 'x' })).status).toBe(
        404,
      );
    });
  });

  describe('plan versions', () => {
    it('request changes, a second submission and approval give two versions with their decisions', async () => {
      const id = await plannedCase();
      const first = await designer.put(`/cases/${id}/simulation`, {
        simulationVideoUrl: 'https://sim.example/v1.mp4',
        simulationExternalLink: 'https://viewer.example/v1',
      });
      expect(first.status).toBe(200);
      expect(first.body.planVersions).toEqual([]);
      const submitted = await designer.post(`/cases/${id}/advance`);
      expect(submitted.body.planVersions).toEqual([
        expect.objectContaining({
          version: 1,
          simulationVideoUrl: 'https://sim.example/v1.mp4',
          simulationExternalLink: 'https://viewer.example/v1',
          submittedBy: 'designer',
          outcome: 'pending',
          comment: null,
          decidedAt: null,
          decidedBy: null,
        }),
      ]);
      const changes = await drLee.post(`/cases/${id}/request-changes`, { comment: 'Less tipping on 21' });
      expect(changes.body.planVersions[0]).toMatchObject({
        outcome: 'changes_requested',
        comment: 'Less tipping on 21',
        decidedBy: 'dr.lee',
      });
      await designer.put(`/cases/${id}/simulation`, {
        simulationVideoUrl: 'https://sim.example/v2.mp4',
        simulationExternalLink: '',
      });
      await designer.post(`/cases/${id}/advance`);
      const approved = await drLee.post(`/cases/${id}/doctor-approve`);
      expect(approved.status).toBe(200);
      const versions = approved.body.planVersions;
      expect(versions.map((v: { version: number; outcome: string }) => [v.version, v.outcome])).toEqual([
        [1, 'changes_requested'],
        [2, 'approved'],
      ]);
      expect(versions[1]).toMatchObject({
        simulationVideoUrl: 'https://sim.example/v2.mp4',
        simulationExternalLink: '',
        comment: null,
      });
      expect(Date.parse(versions[1].decidedAt)).toBeGreaterThanOrEqual(Date.parse(versions[1].submittedAt));
      // The list carries them too (the summary of GET /cases and of the live stream).
      const summary = (await admin.get('/cases')).body.find((c: { id: string }) => c.id === id);
      expect(summary.planVersions).toEqual(versions);
    });
  });

  describe('POST /cases/{id}/reorders', () => {
    it('only from Completed: 409 whoever asks', async () => {
      const id = await plannedCase();
      for (const client of [admin, drLee, designer]) {
        expect(
          await client.post(`/cases/${id}/reorders`, { kind: 'remake', reasonCode: 'lost' }),
        ).toMatchObject({
          status: 409,
          body: { error: CASE_WORK_TEXTS.reorderOnlyCompleted },
        });
      }
    });

    it('who may: Manager and the case doctor; other staff 403; another doctor 404', async () => {
      const id = await plannedCase('Remade Patient');
      await complete(id);
      for (const client of [rep, designer, tech]) {
        expect(
          await client.post(`/cases/${id}/reorders`, { kind: 'remake', reasonCode: 'lost' }),
        ).toMatchObject({
          status: 403,
          body: { error: CASE_WORK_TEXTS.reorderRoles },
        });
      }
      expect(
        await drPatel.post(`/cases/${id}/reorders`, { kind: 'remake', reasonCode: 'lost' }),
      ).toMatchObject({
        status: 404,
        body: { error: CASE_TEXTS.notFound },
      });

      const remake = await drLee.post(`/cases/${id}/reorders`, {
        kind: 'remake',
        reasonCode: 'broken',
        reason: 'Cracked',
      });
      expect(remake.status).toBe(201);
      const original = (await admin.get(`/cases/${id}`)).body;
      expect(remake.body).toMatchObject({
        status: 'Pending Approval',
        patientName: 'Remade Patient',
        doctorName: original.doctorName,
        clinicName: original.clinicName,
        assignedDoctorUsername: 'dr.lee',
        origin: { caseId: id, kind: 'remake', reasonCode: 'broken', reason: 'Cracked' },
        followUps: [],
        version: 1,
      });
      expect(remake.body.id).toMatch(/^CA-\d{4}-\d{3,}$/);
      expect(remake.body.id).not.toBe(id);
      expect(original.followUps).toEqual([{ caseId: remake.body.id, kind: 'remake' }]);
      expect(original.status).toBe('Completed');

      const refinement = await admin.post(`/cases/${id}/reorders`, { kind: 'refinement' });
      expect(refinement.status).toBe(201);
      expect(refinement.body.origin).toEqual({
        caseId: id,
        kind: 'refinement',
        reasonCode: null,
        reason: '',
      });
      expect((await admin.get(`/cases/${id}`)).body.followUps).toEqual([
        { caseId: remake.body.id, kind: 'remake' },
        { caseId: refinement.body.id, kind: 'refinement' },
      ]);

      // The events, exactly as other readers expect them.
      const created = (await admin.get(`/cases/${remake.body.id}/history`)).body[0];
      expect(created).toMatchObject({ type: 'CaseCreated', actor: { username: 'dr.lee', role: 'Doctor' } });
      expect(created.data.origin).toEqual({
        caseId: id,
        kind: 'remake',
        reasonCode: 'broken',
        reason: 'Cracked',
      });
      const ordered = (await admin.get(`/cases/${id}/history`)).body.filter(
        (entry: { type: string }) => entry.type === 'FollowUpOrdered',
      );
      expect(ordered.map((entry: { data: unknown }) => entry.data)).toEqual([
        { caseId: remake.body.id, kind: 'remake', reasonCode: 'broken', reason: 'Cracked' },
        { caseId: refinement.body.id, kind: 'refinement', reasonCode: null, reason: '' },
      ]);
      // An ordinary case's CaseCreated carries no origin.
      expect((await admin.get(`/cases/${id}/history`)).body[0].data).not.toHaveProperty('origin');
      // The doctor sees the new case in their list.
      const listed = (await drLee.get('/cases')).body.map((c: { id: string }) => c.id);
      expect(listed).toEqual(expect.arrayContaining([remake.body.id]));
    });

    it('bad input → 400 with clear texts, and nothing is created', async () => {
      const id = await plannedCase();
      await complete(id);
      const before = (await admin.get('/cases')).body.length;
      for (const [body, error] of [
        [{}, CASE_WORK_TEXTS.reorderKind],
        [{ kind: 'redo' }, CASE_WORK_TEXTS.reorderKind],
        [{ kind: 7 }, CASE_WORK_TEXTS.reorderKind],
        [{ kind: 'remake' }, CASE_WORK_TEXTS.reasonCode],
        [{ kind: 'remake', reasonCode: 'bored' }, CASE_WORK_TEXTS.reasonCode],
        [{ kind: 'remake', reasonCode: null }, CASE_WORK_TEXTS.reasonCode],
        [{ kind: 'remake', reasonCode: 'other' }, CASE_WORK_TEXTS.otherReasonRequired],
        [{ kind: 'remake', reasonCode: 'other', reason: ' ' }, CASE_WORK_TEXTS.otherReasonRequired],
        [{ kind: 'refinement', reasonCode: 'bored' }, CASE_WORK_TEXTS.reasonCode],
      ] as const) {
        const answer = await admin.post(`/cases/${id}/reorders`, body);
        expect({ body, status: answer.status, error: answer.body.error }).toEqual({
          body,
          status: 400,
          error,
        });
      }
      expect((await admin.get('/cases')).body.length).toBe(before);
      expect((await admin.get(`/cases/${id}`)).body.followUps).toEqual([]);
      const stale = await admin.post(`/cases/${id}/reorders`, { kind: 'refinement', expectedVersion: 2 });
      expect(stale).toMatchObject({ status: 409, body: { error: CASE_TEXTS.concurrentChange } });
      const other = await admin.post(`/cases/${id}/reorders`, {
        kind: 'remake',
        reasonCode: 'other',
        reason: 'Dog',
      });
      expect(other.status).toBe(201);
    });
  });

  it('open screens hear every change live: files, plan versions, the remake and its original', async () => {
    const id = await plannedCase('Live Patient');
    const streams = await Promise.all(
      [admin, drLee].map((client) => SseStream.open(`${users.lab.apiUrl}/events`, { token: client.token })),
    );
    try {
      const pdf = await upload(drLee, PDF, 'live.pdf');
      await drLee.post(`/cases/${id}/files`, { files: [pdf.body] });
      await complete(id);
      const remake = (await drLee.post(`/cases/${id}/reorders`, { kind: 'remake', reasonCode: 'lost' })).body;
      for (const stream of streams) {
        await stream.waitFor(
          (m) =>
            m.event === 'case_updated' &&
            m.data.id === id &&
            m.data.files.some((f: { name: string }) => f.name === 'live.pdf'),
          'the added file',
        );
        await stream.waitFor(
          (m) =>
            m.event === 'case_updated' &&
            m.data.id === id &&
            m.data.planVersions?.[0]?.outcome === 'approved',
          'the approved plan version',
        );
        const created = await stream.waitFor(
          (m) => m.event === 'case_created' && m.data.id === remake.id,
          'the remake',
        );
        expect(created.data.origin).toEqual({ caseId: id, kind: 'remake', reasonCode: 'lost', reason: '' });
        expect(created.data).not.toHaveProperty('notes');
        await stream.waitFor(
          (m) =>
            m.event === 'case_updated' && m.data.id === id && m.data.followUps?.[0]?.caseId === remake.id,
          'the original with its follow-up',
        );
      }
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('a rebuild from the log gives the same read models, row for row', async () => {
    const dataSource = users.lab.app.get(DataSource);
    const rows = async () =>
      dataSource.query(
        'SELECT id, data, version, deleted, note_count, notes_text_length FROM case_view ORDER BY id',
      ) as Promise<unknown[]>;
    const ids = async () =>
      dataSource.query('SELECT id, year, suffix FROM case_ids ORDER BY id') as Promise<unknown[]>;
    const before = [await rows(), await ids()];
    expect(
      (before[0] as { data: { followUps: unknown[] } }[]).some((row) => row.data.followUps.length > 0),
    ).toBe(true);
    await new ProjectionRebuilder(dataSource, users.lab.app.get(EventStore)).run({});
    expect([await rows(), await ids()]).toEqual(before);
  });
});
