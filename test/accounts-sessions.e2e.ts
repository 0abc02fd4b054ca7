import { SESSION_CACHE_MS } from '../backend/src/sessions/sessions.service';
import { requestFrom } from './support/from-address';
import { eventually, sleep, sql } from './support/helpers';
import { ApiClient } from './support/http';
import { SmtpSink } from './support/smtp-sink';
import { startTestApp, type TestApp } from './support/test-app';

/** api.md Accounts: the sessions a user can see and end, Remember Me's limits, the new sign-in email. */
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Version/18.0 Mobile Safari/604.1';
const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/140.0 Safari/537.36';

describe('sessions a user can see, and the new sign-in email', () => {
  let smtp: SmtpSink;
  let lab: TestApp;
  let admin: ApiClient;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    lab = await startTestApp({ SMTP_URL: smtp.url, NOTIFICATIONS_BACKOFF_MS: '20' });
    admin = await lab.login('admin');
  });
  afterAll(async () => {
    await lab?.close();
    await smtp?.close();
  });

  /** Signs in from a loopback address with a user agent; the client and the Set-Cookie lines. */
  const signIn = async (
    username: string,
    from: { socket: string; userAgent: string; cookie?: string; rememberMe?: boolean },
  ) => {
    const answer = await requestFrom(
      from.socket,
      `${lab.apiUrl}/auth/login`,
      'POST',
      { username, password: 'demo', ...(from.rememberMe ? { rememberMe: true } : {}) },
      { 'user-agent': from.userAgent, ...(from.cookie ? { cookie: from.cookie } : {}) },
    );
    expect(answer.status).toBe(200);
    const device = answer.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('af_device='))!
      .split(';')[0];
    return { client: new ApiClient(lab.apiUrl, answer.body.token, answer.body.user), device };
  };

  it("lists the caller's own sessions, marks the current one, and ends one by id", async () => {
    const phone = await signIn('rep', { socket: '127.0.0.41', userAgent: PHONE, rememberMe: true });
    const laptop = await signIn('rep', { socket: '127.0.0.42', userAgent: LAPTOP });
    const others = await lab.login('designer');

    const listed = await laptop.client.get('/auth/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(2);
    const mine = listed.body.find((session: { current: boolean }) => session.current);
    const theirs = listed.body.find((session: { current: boolean }) => !session.current);
    expect(mine).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      current: true,
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
      address: '127.0.0.42',
      userAgent: LAPTOP,
      rememberMe: false,
    });
    expect(theirs).toMatchObject({
      current: false,
      address: '127.0.0.41',
      userAgent: PHONE,
      rememberMe: true,
    });
    expect(Date.parse(mine.createdAt)).toBeGreaterThanOrEqual(Date.parse(theirs.createdAt));

    // Another user's session is as unknown as a made-up id.
    const designerSessions = (await others.get('/auth/sessions')).body as { id: string }[];
    expect(designerSessions).toHaveLength(1);
    for (const id of [designerSessions[0].id, '00000000-0000-4000-8000-000000000000', 'not-an-id'])
      expect((await laptop.client.delete(`/auth/sessions/${id}`)).status).toBe(404);
    expect((await others.get('/auth/me')).status).toBe(200);

    expect((await laptop.client.delete(`/auth/sessions/${theirs.id}`)).status).toBe(204);
    expect(await phone.client.get('/auth/me')).toMatchObject({
      status: 401,
      body: { error: 'Not signed in.' },
    });
    expect(
      (await laptop.client.get('/auth/sessions')).body.map((session: { id: string }) => session.id),
    ).toEqual([mine.id]);
    // Ending one's own current session is a sign-out.
    expect((await laptop.client.delete(`/auth/sessions/${mine.id}`)).status).toBe(204);
    expect((await laptop.client.get('/auth/me')).status).toBe(401);
  });

  it('ends a Remember Me session after 7 days unused, and gives it 30 days at most', async () => {
    const used = await signIn('tech', { socket: '127.0.0.43', userAgent: LAPTOP, rememberMe: true });
    const idle = await signIn('tech', { socket: '127.0.0.44', userAgent: PHONE, rememberMe: true });
    const [row] = await sql(
      lab.databaseUrl,
      `SELECT extract(epoch FROM expires_at - created_at) / 86400 AS days FROM sessions
        WHERE username_key = 'tech' AND address = '127.0.0.43'`,
    );
    expect(Number(row.days)).toBeGreaterThan(29.9);
    expect(Number(row.days)).toBeLessThanOrEqual(30);
    await sql(
      lab.databaseUrl,
      `UPDATE sessions SET last_used_at = now() - interval '6 days 23 hours' WHERE address = '127.0.0.43';
       UPDATE sessions SET last_used_at = now() - interval '7 days 1 minute' WHERE address = '127.0.0.44'`,
    );
    await sleep(SESSION_CACHE_MS + 100);
    expect((await used.client.get('/auth/me')).status).toBe(200);
    expect((await idle.client.get('/auth/me')).status).toBe(401);
    // Past its end a Remember Me session is over however recently it was used.
    await sql(
      lab.databaseUrl,
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE address = '127.0.0.43'`,
    );
    await sleep(SESSION_CACHE_MS + 100);
    expect((await used.client.get('/auth/me')).status).toBe(401);
  });

  it('emails "New sign-in to AlignerFlow" on a sign-in from a browser the user has not used, once', async () => {
    expect((await admin.put('/users/dr.lee', { email: 'lee@clinic.example.test' })).status).toBe(200);
    const first = await signIn('dr.lee', { socket: '127.0.0.45', userAgent: LAPTOP });
    await eventually(() => smtp.to('lee@clinic.example.test').length === 1, 15_000, 'the new sign-in email');
    const [mail] = smtp.to('lee@clinic.example.test');
    expect(mail.subject).toBe('New sign-in to AlignerFlow');
    expect(mail.text).toContain('from 127.0.0.45 with Chrome on Windows');
    expect(mail.text).toMatch(/on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);

    // The same browser again (its known-device cookie): no email.
    await signIn('dr.lee', { socket: '127.0.0.46', userAgent: LAPTOP, cookie: first.device });
    // Another user's cookie is no known device for this user: an email.
    const other = await signIn('dr.patel', { socket: '127.0.0.47', userAgent: PHONE });
    await signIn('dr.lee', { socket: '127.0.0.47', userAgent: PHONE, cookie: other.device });
    await eventually(() => smtp.to('lee@clinic.example.test').length === 2, 15_000, 'the second email');
    expect(smtp.to('lee@clinic.example.test')[1].text).toContain('from 127.0.0.47 with Safari on iOS');

    // Email off, or no address: nothing.
    expect((await admin.put('/users/dr.lee', { notify: { email: false } })).status).toBe(200);
    await signIn('dr.lee', { socket: '127.0.0.48', userAgent: PHONE });
    await signIn('designer', { socket: '127.0.0.48', userAgent: PHONE });
    const [{ queued }] = await sql(
      lab.databaseUrl,
      `SELECT count(*)::int AS queued FROM notification_deliveries WHERE id LIKE 'signin-%'`,
    );
    expect(queued).toBe(2);
    expect(smtp.mails.filter((one) => one.subject === 'New sign-in to AlignerFlow')).toHaveLength(2);
  });
});
