import {
  PHOTO_ANALYSIS_LIMIT,
  PHOTO_ANALYSIS_WINDOW_MS,
  tooManyPhotoAnalysesText,
} from '@alignerflow/domain';
import { download, PNG, upload } from './support/files';
import type { ApiClient } from './support/http';
import { ModelStub } from './support/model-stub';
import { startTestApp, type TestApp } from './support/test-app';

// A 1×1 PNG and a tiny ASCII STL: real file contents, checked by the server by their bytes.
const STL = Buffer.from(
  'solid arch\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid arch\n',
);

describe('uploads and AI photo analysis', () => {
  const model = new ModelStub();
  let lab: TestApp;
  let admin: ApiClient, rep: ApiClient, tech: ApiClient, drLee: ApiClient, drPatel: ApiClient;

  beforeAll(async () => {
    await model.start();
    lab = await startTestApp({ AI_API_KEY: 'test-key', AI_ENDPOINT: model.url, AI_MODEL: 'gemini-test' });
    [admin, rep, tech, drLee, drPatel] = await Promise.all(
      ['admin', 'rep', 'tech', 'dr.lee', 'dr.patel'].map((u) => lab.login(u)),
    );
  });
  afterAll(async () => {
    await lab.close();
    await model.stop();
  });

  it('stores photos and STL files by content, shows them only to whoever may see their case', async () => {
    const photo = await upload(drLee, PNG, 'smile.png', { type: 'Photo' });
    expect(photo.status).toBe(201);
    expect(photo.body).toMatchObject({ name: 'smile.png', size: '0.00 MB', type: 'Photo' });
    expect(photo.body.url).toMatch(/^\/api\/files\/[0-9a-f-]{36}\/smile\.png$/);
    const stl = await upload(drLee, STL, 'upper.stl', { type: 'STL' });
    expect(stl.status).toBe(201);

    // Before the file belongs to a case, only its uploader can read it.
    expect((await download(drLee, photo.body.url)).bytes.equals(PNG)).toBe(true);
    expect((await download(admin, photo.body.url)).status).toBe(404);

    const created = await drLee.post('/cases', {
      patientName: 'Grace Hopper',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles',
      files: [photo.body, stl.body],
    });
    expect(created.status).toBe(201);
    const fetched = await download(admin, photo.body.url);
    expect(fetched).toMatchObject({ status: 200, type: 'image/png' });
    expect(fetched.bytes.equals(PNG)).toBe(true);
    expect((await download(drPatel, photo.body.url)).status).toBe(404);

    // A file cannot be claimed twice or by someone else.
    const stolen = await rep.post('/cases', {
      patientName: 'P',
      doctorName: 'D',
      clinicName: 'C',
      files: [photo.body],
    });
    expect(stolen).toMatchObject({
      status: 400,
      body: { error: 'A case can only carry files you uploaded yourself.' },
    });
  });

  it('refuses files of the wrong kind, too large, or with no file at all', async () => {
    expect(await upload(rep, Buffer.from('hello'), 'notes.txt', { type: 'Photo' })).toMatchObject({
      status: 400,
      body: { error: 'The photo slots accept only images.' },
    });
    expect(await upload(rep, PNG, 'arch.stl', { type: 'STL' })).toMatchObject({
      status: 400,
      body: { error: 'The STL slots accept only .stl files.' },
    });
    expect((await upload(rep, PNG, 'x.png', { type: 'Video' })).status).toBe(400);
    const big = Buffer.concat([PNG, Buffer.alloc(26 * 1024 * 1024)]);
    expect(await upload(rep, big, 'huge.png', { type: 'Photo' })).toMatchObject({
      status: 413,
      body: { error: 'The file is too large: photos up to 25 MB.' },
    });
    const empty = await fetch(`${rep.apiUrl}/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rep.token}` },
      body: new FormData(),
    });
    expect(empty.status).toBe(400);
    expect((await fetch(`${rep.apiUrl}/upload`, { method: 'POST', body: new FormData() })).status).toBe(401);
  });

  it('analyses a stored photo of a case with the model and answers the contract texts', async () => {
    const photo = await upload(rep, PNG, 'aligner.png', { type: 'Photo' });
    const stl = await upload(rep, STL, 'lower.stl', { type: 'STL' });
    const created = await rep.post('/cases', {
      patientName: 'Alan Turing',
      doctorName: 'Dr. Raj Patel',
      clinicName: 'Downtown',
      files: [photo.body, { ...stl.body, type: 'Photo' }],
    });
    const caseId = created.body.id;

    const analysed = await tech.post('/ai/analyze-photo', { caseId, fileUrl: photo.body.url });
    expect(analysed).toMatchObject({
      status: 200,
      body: { text: 'No defects found. The aligner edges are smooth.' },
    });
    const sent = model.requests.at(-1)!;
    expect(sent.apiKey).toBe('test-key');
    expect(sent.path).toBe('/v1beta/models/gemini-test:generateContent');
    const [imagePart, textPart] = sent.body.contents[0].parts;
    expect(imagePart.inline_data).toEqual({ mime_type: 'image/png', data: PNG.toString('base64') });
    expect(textPart.text).toContain("'No defects found.' or 'Potential defects identified:'");

    expect(await tech.post('/ai/analyze-photo', { caseId, fileUrl: stl.body.url })).toMatchObject({
      status: 400,
      body: { error: 'File is not a valid image. MIME type received: model/stl.' },
    });
    expect((await tech.post('/ai/analyze-photo', { caseId, fileUrl: '/api/files/x/y.png' })).status).toBe(
      400,
    );
    expect((await drPatel.post('/ai/analyze-photo', { caseId, fileUrl: photo.body.url })).status).toBe(403);
    expect(
      (await tech.post('/ai/analyze-photo', { caseId: 'CA-1999-999', fileUrl: photo.body.url })).status,
    ).toBe(404);

    model.answer = { status: 500, text: '' };
    expect(await tech.post('/ai/analyze-photo', { caseId, fileUrl: photo.body.url })).toMatchObject({
      status: 502,
      body: { error: 'Failed to analyze image due to an API error.' },
    });
  });

  it('limits photo analyses per user, failed ones included, before the model is called', async () => {
    model.answer = { status: 200, text: 'No defects found. The aligner edges are smooth.' };
    const photo = await upload(rep, PNG, 'limit.png', { type: 'Photo' });
    const created = await rep.post('/cases', {
      patientName: 'Edsger Dijkstra',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles',
      files: [photo.body],
    });
    const request = { caseId: created.body.id, fileUrl: photo.body.url };
    const analyse = () =>
      fetch(`${rep.apiUrl}/ai/analyze-photo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${rep.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });

    // A third of the allowance spent on calls the model failed: they count as much.
    const statuses: number[] = [];
    model.answer = { status: 500, text: '' };
    for (let i = 0; i < PHOTO_ANALYSIS_LIMIT / 3; i++) statuses.push((await analyse()).status);
    model.answer = { status: 200, text: 'No defects found. The aligner edges are smooth.' };
    while (statuses.length < PHOTO_ANALYSIS_LIMIT) statuses.push((await analyse()).status);
    expect(new Set(statuses.slice(0, PHOTO_ANALYSIS_LIMIT / 3))).toEqual(new Set([502]));
    expect(new Set(statuses.slice(PHOTO_ANALYSIS_LIMIT / 3))).toEqual(new Set([200]));

    const modelCalls = model.requests.length;
    const refused = await analyse();
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(PHOTO_ANALYSIS_WINDOW_MS / 1000);
    const { error } = await refused.json();
    expect(error).toBe(tooManyPhotoAnalysesText(retryAfter));
    expect(error).toMatch(/^Too many photo analyses\. Try again in \d+ minute\(s\)\.$/);
    expect(model.requests.length).toBe(modelCalls);

    // Someone else's allowance is their own.
    expect((await tech.post('/ai/analyze-photo', request)).status).toBe(200);
  });

  it('reports the feature as unconfigured without a model key', async () => {
    const bare = await startTestApp();
    try {
      const user = await bare.login('rep');
      const photo = await upload(user, PNG, 'a.png', { type: 'Photo' });
      const created = await user.post('/cases', {
        patientName: 'P',
        doctorName: 'D',
        clinicName: 'C',
        files: [photo.body],
      });
      expect([photo.status, created.status, created.body.error]).toEqual([201, 201, undefined]);
      expect(
        await user.post('/ai/analyze-photo', { caseId: created.body.id, fileUrl: photo.body.url }),
      ).toMatchObject({
        status: 503,
        body: { error: 'AI photo analysis is not configured.' },
      });
    } finally {
      await bare.close();
    }
  });
});
