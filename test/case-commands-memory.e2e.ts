import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { CASE_ERASURE, type Case } from '@alignerflow/domain';
import { createApp } from '../backend/src/app';
import { loadConfig } from '../backend/src/config/config';
import { caseAt } from './support/case-road';
import { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Each API process remembers the state it last wrote a case in and decides its next command on it
 * (backend/src/cases/case-command.service.ts). Here two processes write the same cases in turn, so
 * each one's memory is regularly behind the other's writes: nothing may be lost or decided on the
 * stale state.
 */
describe('commands decided on a process memory of the case, with another process writing', () => {
  let a: TestApp;
  let b: INestApplication;
  let adminA: ApiClient;
  let adminB: ApiClient;

  beforeAll(async () => {
    a = await startTestApp();
    const config = loadConfig({
      DATABASE_URL: a.databaseUrl,
      DATA_DIR: a.dataDir,
      DEMO_DATA: '1',
      PORT: '0',
    });
    b = await createApp({ config, databaseUrl: a.databaseUrl, logger: false, spaDir: '/nonexistent' });
    await b.listen(0, '127.0.0.1');
    const { port } = b.getHttpServer().address() as AddressInfo;
    adminA = await a.login('admin');
    const token = (
      await new ApiClient(`http://127.0.0.1:${port}/api`).post('/auth/login', {
        username: 'admin',
        password: 'demo',
      })
    ).body.token;
    adminB = new ApiClient(`http://127.0.0.1:${port}/api`, token);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('keeps every note, whichever process took it', async () => {
    const id = (await adminA.post('/cases', { patientName: 'P', doctorName: 'D', clinicName: 'C' })).body.id;
    const texts = ['a1', 'b1', 'a2', 'a3', 'b2', 'a4'];
    for (const text of texts) {
      const client = text.startsWith('a') ? adminA : adminB;
      const answer = await client.post(`/cases/${id}/notes`, { text });
      expect(answer.status).toBe(201);
      // After the note the creation leaves.
      expect(answer.body.notes.slice(1).map((note: { text: string }) => note.text)).toEqual(
        texts.slice(0, texts.indexOf(text) + 1),
      );
    }
    const { body } = await adminA.get(`/cases/${id}`);
    expect(body.version).toBe(1 + texts.length);
  });

  it('answers each of many notes sent at once on one case with the notes as of its own version', async () => {
    // The answer is made of the memory's own notes array, which the case's next command extends:
    // an answer made after the next command's note was added would carry that note too.
    const id = (await adminA.post('/cases', { patientName: 'P', doctorName: 'D', clinicName: 'C' })).body.id;
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, n) => adminA.post(`/cases/${id}/notes`, { text: `at once ${n}` })),
    );
    const { body: last } = await adminA.get(`/cases/${id}`);
    expect(last.version).toBe(1 + answers.length);
    const texts = (state: Case) => state.notes.map((note) => note.text);
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      // The creation's note, then those up to this answer's own.
      expect(texts(answer.body)).toEqual(texts(last).slice(0, answer.body.version));
    }
    expect(new Set(answers.map(({ body }) => body.version)).size).toBe(answers.length);
  });

  it('decides on the newer state when the memory would refuse or do nothing', async () => {
    const id = (await adminA.post('/cases', { patientName: 'P', doctorName: 'D', clinicName: 'C' })).body.id;
    expect((await adminA.post(`/cases/${id}/hold`)).body.onHold).toBe(true);
    expect((await adminB.post(`/cases/${id}/resume`)).body.onHold).toBe(false);
    // A remembers the case held; it is not any more, so holding it again is a change.
    const held = await adminA.post(`/cases/${id}/hold`);
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({ onHold: true, version: 4 });
    // And the other way round: B remembers it resumed, A held it since.
    const resumed = await adminB.post(`/cases/${id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ onHold: false, version: 5 });
  });

  it('answers a version the user saw against the newest state, not the memory', async () => {
    const id = (await adminA.post('/cases', { patientName: 'P', doctorName: 'D', clinicName: 'C' })).body.id;
    await adminA.post(`/cases/${id}/notes`, { text: 'one' });
    const viaB = await adminB.post(`/cases/${id}/notes`, { text: 'two' });
    // A remembers version 2; the user saw version 3 (B's answer): that is current, so it lands.
    const current = await adminA.post(`/cases/${id}/notes`, {
      text: 'three',
      expectedVersion: viaB.body.version,
    });
    expect(current.status).toBe(201);
    // A version older than the newest is a conflict, whatever A remembers.
    const stale = await adminA.post(`/cases/${id}/notes`, {
      text: 'four',
      expectedVersion: viaB.body.version,
    });
    expect(stale.status).toBe(409);
  });

  it('answers an erasure with the notes it rewrote, not the notes it remembered, and adds after them', async () => {
    const clients = {
      admin: adminA,
      designer: await a.login('designer'),
      'dr.lee': await a.login('dr.lee'),
    };
    const { id } = await caseAt(clients, 'Completed');
    // Its answer leaves the case, its notes with it, in A's memory.
    const noted = await adminA.post(`/cases/${id}/notes`, { text: 'Prefers morning fittings.' });
    expect(noted.status).toBe(201);
    const erased = await adminA.post(`/cases/${id}/erase`, { reason: 'Asked by the patient' });
    expect(erased.status).toBe(200);
    const texts = (state: Case) => state.notes.map((note) => note.text);
    expect(texts(erased.body)).toEqual(noted.body.notes.map(() => CASE_ERASURE.erasedText));
    const later = await adminA.post(`/cases/${id}/notes`, { text: 'Aligners posted.' });
    expect(later.status).toBe(201);
    expect(texts(later.body)).toEqual([...texts(erased.body), 'Aligners posted.']);
    expect((await adminA.get(`/cases/${id}`)).body).toEqual(later.body);
  });
});
