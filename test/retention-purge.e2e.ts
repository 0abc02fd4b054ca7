import { CASE_ERASURE, type Case } from '@alignerflow/domain';
import { Clock } from '../backend/src/common/clock';
import { RetentionService } from '../backend/src/patient-data/retention.service';
import { caseAt } from './support/case-road';
import { download, PNG, upload } from './support/files';
import { sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/** api.md "Patient data": the retention rule and its daily erasure, and purging one file. */
const YEAR_MS = 365.25 * 86_400_000;

jest.setTimeout(120_000);

describe('retention and file purges', () => {
  let lab: TestApp;
  let admin: ApiClient, designer: ApiClient, drLee: ApiClient;
  let clock: Clock;

  beforeAll(async () => {
    lab = await startTestApp();
    [admin, designer, drLee] = await Promise.all(
      ['admin', 'designer', 'dr.lee'].map((name) => lab.login(name)),
    );
    clock = lab.app.get(Clock);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await lab?.close();
  });

  const clients = () => ({ admin, designer, 'dr.lee': drLee });

  describe('PUT /settings/retention', () => {
    it('is null (never) until a Manager sets 1 to 30 years', async () => {
      expect(await admin.get('/settings/retention')).toMatchObject({
        status: 200,
        body: { eraseAfterYears: null },
      });
      expect(await admin.put('/settings/retention', { eraseAfterYears: 7 })).toMatchObject({
        status: 200,
        body: { eraseAfterYears: 7 },
      });
      expect((await admin.get('/settings/retention')).body).toEqual({ eraseAfterYears: 7 });
      for (const wrong of [0, 31, 2.5, '5'])
        expect(await admin.put('/settings/retention', { eraseAfterYears: wrong })).toMatchObject({
          status: 400,
          body: { error: CASE_ERASURE.retentionRange },
        });
      expect((await admin.get('/settings/retention')).body).toEqual({ eraseAfterYears: 7 });
      expect((await designer.put('/settings/retention', { eraseAfterYears: 2 })).status).toBe(403);
      expect((await designer.get('/settings/retention')).status).toBe(403);
      expect((await admin.put('/settings/retention', { eraseAfterYears: null })).body).toEqual({
        eraseAfterYears: null,
      });
    });
  });

  describe('the daily sweep', () => {
    it('erases, as the system with reason "retention", the cases completed longer ago than the rule', async () => {
      const old = await caseAt(clients(), 'Completed', { patientName: 'Retention Oldcase' });
      const rejected = await caseAt(clients(), 'Rejected', { patientName: 'Retention Rejected' });
      const open = await caseAt(clients(), 'Digital Planning', { patientName: 'Retention Open' });
      const sweeper = lab.app.get(RetentionService);

      // No rule: nothing is erased, however old.
      jest.spyOn(clock, 'now').mockReturnValue(Date.now() + 40 * YEAR_MS);
      expect(await sweeper.sweep()).toEqual([]);

      await admin.put('/settings/retention', { eraseAfterYears: 2 });
      jest.spyOn(clock, 'now').mockReturnValue(Date.now() + 1.5 * YEAR_MS);
      expect(await sweeper.sweep()).toEqual([]);

      jest.spyOn(clock, 'now').mockReturnValue(Date.now() + 2.5 * YEAR_MS);
      const erased = await sweeper.sweep();
      expect(erased).toContain(old.id);
      for (const kept of [rejected.id, open.id]) expect(erased).not.toContain(kept);
      expect((await admin.get(`/cases/${old.id}`)).body).toMatchObject({
        patientName: CASE_ERASURE.erasedName,
        erasedBy: 'system',
      });
      const history = (await admin.get(`/cases/${old.id}/history`)).body;
      expect(history[history.length - 1]).toMatchObject({
        type: 'CaseErased',
        data: { reason: 'retention' },
        actor: { username: 'system' },
      });
      // A second sweep finds nothing left to do.
      expect(await sweeper.sweep()).not.toContain(old.id);
      await admin.put('/settings/retention', { eraseAfterYears: null });
    });
  });

  describe('POST /cases/{id}/files/purge', () => {
    async function caseWithPhotos(): Promise<{ id: string; keep: string; purge: string }> {
      const { id } = await caseAt(clients(), 'Digital Planning');
      const photos = await Promise.all(['keep.png', 'misfiled.png'].map((name) => upload(admin, PNG, name)));
      expect(
        (await admin.post(`/cases/${id}/files`, { files: photos.map((photo) => photo.body) })).status,
      ).toBe(200);
      return { id, keep: photos[0].body.url, purge: photos[1].body.url };
    }

    it('deletes the bytes, keeps an entry in the history, and the URL answers 404', async () => {
      const { id, keep, purge } = await caseWithPhotos();
      const answer = await admin.post(`/cases/${id}/files/purge`, { url: purge, reason: 'Another patient' });
      expect(answer.status).toBe(200);
      expect((answer.body as Case).files.map((file) => file.url)).toEqual([keep]);
      expect(await download(admin, purge)).toMatchObject({ status: 404 });
      expect(await download(admin, keep)).toMatchObject({ status: 200 });
      const uploadId = /files\/([0-9a-f-]{36})\//.exec(purge)![1];
      expect(await sql(lab.databaseUrl, 'SELECT id FROM uploads WHERE id = $1', [uploadId])).toEqual([]);
      const history = (await admin.get(`/cases/${id}/history`)).body;
      expect(history[history.length - 1]).toMatchObject({
        type: 'FilePurged',
        data: { url: purge, reason: 'Another patient' },
        actor: { username: 'admin' },
      });
    });

    it('is for a Manager, of a file of the case, with a reason', async () => {
      const { id, purge } = await caseWithPhotos();
      expect((await designer.post(`/cases/${id}/files/purge`, { url: purge, reason: 'x' })).status).toBe(403);
      expect(
        await admin.post(`/cases/${id}/files/purge`, {
          url: '/api/files/00000000-0000-0000-0000-000000000000/x.png',
          reason: 'x',
        }),
      ).toMatchObject({ status: 404, body: { error: 'File not found.' } });
      expect((await admin.post(`/cases/${id}/files/purge`, { url: purge, reason: '' })).status).toBe(400);
      expect(await download(admin, purge)).toMatchObject({ status: 200 });
    });

    it('needs a recent proof of identity (step-up), like the erasure', async () => {
      const { id, purge } = await caseWithPhotos();
      jest.spyOn(clock, 'now').mockReturnValue(Date.now() + 11 * 60_000);
      const confirm = { status: 403, body: { error: 'Confirm it is you to continue.', reauth: true } };
      expect(await admin.post(`/cases/${id}/files/purge`, { url: purge, reason: 'x' })).toMatchObject(
        confirm,
      );
      expect(await admin.post(`/cases/${id}/erase`, { reason: 'x' })).toMatchObject(confirm);
      expect((await admin.post('/auth/reauth', { password: 'demo' })).status).toBe(204);
      expect((await admin.post(`/cases/${id}/files/purge`, { url: purge, reason: 'x' })).status).toBe(200);
    });
  });
});
