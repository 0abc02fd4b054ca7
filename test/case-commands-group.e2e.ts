import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createApp } from '../backend/src/app';
import { loadConfig } from '../backend/src/config/config';
import { byUsername, caseAt, createCase } from './support/case-road';
import { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Commands that arrive together are appended together (backend/src/event-store/group-commit.ts),
 * each with its own version check and answer. Two app instances on one database: B's writes make
 * A's memory of a case stale, so A's decision on it conflicts inside a group and is made again.
 */
describe('commands arriving together, on one or many cases', () => {
  let a: TestApp;
  let b: INestApplication;
  let adminA: ApiClient;
  let adminB: ApiClient;
  let drLee: ApiClient;

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
    [adminA, drLee] = await Promise.all([a.login('admin'), a.login('dr.lee')]);
    const api = `http://127.0.0.1:${port}/api`;
    const { token } = (await new ApiClient(api).post('/auth/login', { username: 'admin', password: 'demo' }))
      .body;
    adminB = new ApiClient(api, token);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const newCase = async () => (await createCase(adminA)).id;
  const texts = (theCase: { notes: { text: string }[] }) => theCase.notes.map((note) => note.text);

  it('answers each of many notes on many cases, keeps each once, and groups their appends', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await newCase());
    // B writes the first case: A's memory of it (version 1) is stale, so A's first decision on it
    // fails its version check in whatever group it went out with, and is made again on the row.
    expect((await adminB.post(`/cases/${ids[0]}/notes`, { text: 'via B' })).status).toBe(201);

    const answers = await Promise.all(
      ids.map((id, i) => adminA.post(`/cases/${id}/notes`, { text: `n${i}` })),
    );
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(201);
      expect(answer.body.id).toBe(ids[i]);
      expect(answer.body.version).toBe(i === 0 ? 3 : 2);
      expect(texts(answer.body).slice(1)).toEqual(i === 0 ? ['via B', 'n0'] : [`n${i}`]);
    });
    for (const [i, id] of ids.entries()) {
      const history = (await adminA.get(`/cases/${id}/history`)).body as { type: string }[];
      expect(history).toHaveLength(i === 0 ? 3 : 2);
      expect((await adminA.get(`/cases/${id}`)).body.version).toBe(history.length);
    }
    // Grouped: some commit holds the notes of several cases.
    const [{ most }] = await a.app.get(DataSource).query(
      `SELECT max(streams)::int AS most FROM (SELECT count(DISTINCT stream_id) AS streams FROM events
            WHERE stream_id = ANY($1) AND type = 'NoteAdded' GROUP BY transaction_id) AS commits`,
      [ids.map((id) => `case-${id}`)],
    );
    expect(most).toBeGreaterThan(1);
  });

  it('lands every one of many parallel notes on one case, from both instances', async () => {
    const id = await newCase();
    const sent = Array.from({ length: 24 }, (_, i) => `p${i}`);
    const answers = await Promise.all(
      sent.map((text, i) => (i % 2 ? adminB : adminA).post(`/cases/${id}/notes`, { text })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(sent.map(() => 201));
    // Each answer is a distinct version, and holds its own note.
    expect(new Set(answers.map((answer) => answer.body.version)).size).toBe(sent.length);
    answers.forEach((answer, i) => expect(texts(answer.body)).toContain(sent[i]));
    const stored = (await adminA.get(`/cases/${id}`)).body;
    expect(stored.version).toBe(1 + sent.length);
    expect(texts(stored).slice(1).sort()).toEqual([...sent].sort());
  });

  it('never skips a stage when advances arrive together', async () => {
    const { id } = await caseAt(byUsername(adminA, drLee), 'Model Printing');
    const advances = await Promise.all(
      [adminA, adminB, adminA, adminB].map((client) => client.post(`/cases/${id}/advance`)),
    );
    expect(advances.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(advances.map((answer) => answer.body.status).sort()).toEqual(
      ['Thermoforming', 'Trimming & Polishing', 'Quality Check', 'Packaging & Labeling'].sort(),
    );
    // And with the status the user saw, only one of two wins: the other is told, not moved on.
    const [first, second] = await Promise.all(
      [adminA, adminB].map((client) =>
        client.post(`/cases/${id}/advance`, { fromStatus: 'Packaging & Labeling' }),
      ),
    );
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect((first.status === 409 ? first : second).body).toEqual({
      error: 'The case was changed by someone else. Reload and try again.',
    });
    expect((await adminA.get(`/cases/${id}`)).body.status).toBe('Delivery to Doctor');
  });

  it('answers 409 to a stale expectedVersion inside a group, and lands the others', async () => {
    const [stale, fresh] = [await newCase(), await newCase()];
    await adminB.post(`/cases/${stale}/notes`, { text: 'moved on' });
    const [refused, landed] = await Promise.all([
      adminA.post(`/cases/${stale}/hold`, { expectedVersion: 1 }),
      adminA.post(`/cases/${fresh}/hold`, { expectedVersion: 1 }),
    ]);
    expect(refused.status).toBe(409);
    expect(landed).toMatchObject({ status: 200, body: { onHold: true, version: 2 } });
    expect((await adminA.get(`/cases/${stale}`)).body).toMatchObject({ onHold: false, version: 2 });
  });
});
