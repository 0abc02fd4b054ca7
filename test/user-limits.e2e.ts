import { LIMIT_TEXTS, USER_LIMITS } from '@alignerflow/domain';
import { createCase } from './support/case-road';
import { PNG, upload } from './support/files';
import { sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Per-user limits (api.md, "Patient data"), at the contract's numbers. The 2 GB of a day's uploads
 * is not sent for real: the day's count is set in its table to just under the limit first.
 */
describe('per-user limits', () => {
  let lab: TestApp;
  let rep: ApiClient, designer: ApiClient;

  beforeAll(async () => {
    lab = await startTestApp();
    [rep, designer] = await Promise.all(['rep', 'designer'].map((name) => lab.login(name)));
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
  });

  const retryAfter = (answer: { headers: Headers }) => Number(answer.headers.get('retry-after'));

  it(`refuses a user's case past ${USER_LIMITS.casesPerHour} new ones in an hour`, async () => {
    // Bad input is refused before anything is counted.
    expect((await rep.post('/cases', { patientName: '' })).status).toBe(400);
    let last: { patientName: string; doctorName: string; clinicName: string; priority: string } | undefined;
    for (let made = 0; made < USER_LIMITS.casesPerHour; made++) last = await createCase(rep);
    const { patientName, doctorName, clinicName, priority } = last!;
    const refused = await rep.post('/cases', { patientName, doctorName, clinicName, priority });
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'Limit reached: 200 new cases an hour. Try again later.' },
    });
    expect(refused.body.error).toBe(LIMIT_TEXTS.reached(LIMIT_TEXTS.cases));
    expect(retryAfter(refused)).toBeGreaterThan(0);
    expect(retryAfter(refused)).toBeLessThanOrEqual(3600);
    // The limit is the user's own: the Manager still creates.
    await createCase(await lab.login('admin'));
  }, 120_000);

  it('refuses uploads past 2 GB in a day, counting what was received', async () => {
    const used = async () =>
      Number(
        (
          await sql(
            lab.databaseUrl,
            `SELECT bytes::text FROM upload_bytes_daily WHERE username_key = 'designer' AND day = current_date`,
          )
        )[0]?.bytes ?? 0,
      );
    expect((await upload(designer, PNG, 'a.png')).status).toBe(201);
    expect(await used()).toBe(PNG.length);
    // A refused file (not an image) gives its bytes back.
    expect((await upload(designer, Buffer.from('not a picture'), 'b.png', { type: 'Photo' })).status).toBe(
      400,
    );
    expect(await used()).toBe(PNG.length);

    await sql(lab.databaseUrl, `UPDATE upload_bytes_daily SET bytes = $1 WHERE username_key = 'designer'`, [
      USER_LIMITS.uploadBytesPerDay - PNG.length,
    ]);
    expect((await upload(designer, PNG, 'fits exactly.png')).status).toBe(201);
    expect(await used()).toBe(USER_LIMITS.uploadBytesPerDay);
    const refused = await fetch(`${designer.apiUrl}/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${designer.token}` },
      body: (() => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(PNG)]), 'one too many.png');
        return form;
      })(),
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'Limit reached: 2 GB of uploads a day. Try again later.' });
    const seconds = Number(refused.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(86_400 + 3600);

    // A file that would cross the limit is refused after it is read, and nothing is counted.
    await sql(lab.databaseUrl, `UPDATE upload_bytes_daily SET bytes = $1 WHERE username_key = 'designer'`, [
      USER_LIMITS.uploadBytesPerDay - 10,
    ]);
    expect(await upload(designer, PNG, 'too big now.png')).toMatchObject({ status: 429 });
    expect(await used()).toBe(USER_LIMITS.uploadBytesPerDay - 10);
    // Another user's day is their own.
    expect((await upload(rep, PNG, 'rep.png')).status).toBe(201);
  });

  it(`keeps ${USER_LIMITS.sessionsPerUser} open sessions per user: the next sign-in ends the oldest`, async () => {
    const sessions: ApiClient[] = [];
    for (let i = 0; i < USER_LIMITS.sessionsPerUser; i++) sessions.push(await lab.login('tech'));
    for (const session of sessions) expect((await session.get('/auth/me')).status).toBe(200);
    const newest = await lab.login('tech');
    expect((await newest.get('/auth/me')).status).toBe(200);
    expect((await sessions[0].get('/auth/me')).status).toBe(401);
    expect((await sessions[1].get('/auth/me')).status).toBe(200);
    const [{ open }] = await sql(
      lab.databaseUrl,
      `SELECT count(*)::int AS open FROM sessions WHERE username_key = 'tech'`,
    );
    expect(open).toBe(USER_LIMITS.sessionsPerUser);
  });

  it(`keeps ${USER_LIMITS.fcmTokensPerUser} FCM tokens per user: the next replaces the oldest`, async () => {
    const drLee = await lab.login('dr.lee');
    for (let i = 1; i <= USER_LIMITS.fcmTokensPerUser + 1; i++)
      expect((await drLee.put('/push/fcm-token', { token: `device-${i}` })).status).toBe(204);
    const tokens = await sql(
      lab.databaseUrl,
      `SELECT token FROM fcm_tokens WHERE username = 'dr.lee' ORDER BY id`,
    );
    expect(tokens.map((row) => row.token)).toEqual(
      Array.from({ length: USER_LIMITS.fcmTokensPerUser }, (_, i) => `device-${i + 2}`),
    );
  });
});
