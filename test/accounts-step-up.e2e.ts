import { generate } from 'otplib';
import { Clock } from '../backend/src/common/clock';
import { sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';
import { VirtualAuthenticator } from './support/webauthn';

/** api.md Accounts, step-up: calls that read or change everything need a recent proof of the user. */
const CONFIRM = { status: 403, body: { error: 'Confirm it is you to continue.', reauth: true } };
const ELEVEN_MINUTES = 11 * 60_000;

describe('step-up: confirm it is you', () => {
  let lab: TestApp;
  let clock: Clock;
  let shift = 0;

  beforeAll(async () => {
    lab = await startTestApp({ PUBLIC_URL: 'http://localhost:3000/' });
    clock = lab.app.get(Clock);
    const realNow = clock.now.bind(clock);
    jest.spyOn(clock, 'now').mockImplementation(() => realNow() + shift);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await lab?.close();
  });

  /** Every step-up call, each answering 403 with reauth while the proof is old. */
  const stepUpCalls = (admin: ApiClient) => [
    () => admin.get('/backup'),
    () => admin.get('/events/export'),
    () => admin.post('/restore', { users: [], cases: [] }),
    () => admin.post('/users', { username: 'newcomer', password: 'Lathe-Orbit-5151', role: 'Designer' }),
    () => admin.delete('/users/designer'),
    () => admin.put('/users/rep', { role: 'Designer' }),
    () => admin.put('/users/rep', { password: 'Lathe-Orbit-5151' }),
    () => admin.post('/users/rep/mfa/reset'),
  ];

  it('lets the sign-in count for 10 minutes, then asks for a confirmation before each step-up call', async () => {
    const admin = await lab.login('admin');
    expect((await admin.get('/backup')).status).toBe(200);
    shift += 9 * 60_000;
    expect((await admin.get('/events/export')).status).toBe(200);
    shift += 2 * 60_000;
    for (const call of stepUpCalls(admin)) expect(await call()).toMatchObject(CONFIRM);
    expect((await admin.get('/users/rep')).body.role).toBe('Representative');
    expect((await admin.get('/users/designer')).status).toBe(200);
    // Everything else goes on: reads, a Manager's other changes, one's own password.
    expect((await admin.get('/cases')).status).toBe(200);
    expect((await admin.put('/users/rep', { email: 'rep@lab.example' })).status).toBe(200);
    expect(
      (await admin.put('/users/admin', { password: 'Quartz-Lantern-42', currentPassword: 'demo' })).status,
    ).toBe(200);

    expect(await admin.post('/auth/reauth', { password: 'demo' })).toMatchObject({
      status: 400,
      body: { error: 'The password is not correct.' },
    });
    expect(await admin.post('/auth/reauth', {})).toMatchObject({ status: 400 });
    expect((await admin.post('/auth/reauth', { password: 'Quartz-Lantern-42' })).status).toBe(204);
    expect((await admin.get('/backup')).status).toBe(200);
    expect((await admin.put('/users/rep', { role: 'Designer' })).status).toBe(200);
  });

  it('accepts an authenticator code or a passkey as the confirmation', async () => {
    const tech = await lab.login('tech');
    const setup = await tech.post('/auth/mfa/totp');
    const at = (ms: number) => generate({ secret: setup.body.secret, epoch: Math.floor(ms / 1000) });
    expect((await tech.post('/auth/mfa/totp/confirm', { code: await at(clock.now()) })).status).toBe(200);
    const authenticator = new VirtualAuthenticator('http://localhost:3000', 'localhost');
    const registration = (await tech.post('/auth/passkeys/options')).body;
    expect(
      (await tech.post('/auth/passkeys', { credential: authenticator.register(registration), name: 'Key' }))
        .status,
    ).toBe(201);

    // A Technician's step-up call: the confirmation first, then the role's own answer.
    shift += ELEVEN_MINUTES;
    expect(await tech.get('/backup')).toMatchObject(CONFIRM);
    expect(await tech.post('/auth/reauth', { code: '000000' })).toMatchObject({
      status: 400,
      body: { error: 'The code is not valid.' },
    });
    shift += 30_000;
    expect((await tech.post('/auth/reauth', { code: await at(clock.now()) })).status).toBe(204);
    expect((await tech.get('/backup')).status).toBe(403);
    expect((await tech.get('/backup')).body.reauth).toBeUndefined();

    shift += ELEVEN_MINUTES;
    expect(await tech.get('/backup')).toMatchObject(CONFIRM);
    const options = (await tech.post('/auth/reauth/options')).body;
    expect(options.allowCredentials).toHaveLength(1);
    expect((await tech.post('/auth/reauth', { credential: authenticator.assert(options) })).status).toBe(204);
    // That challenge is used up.
    expect(await tech.post('/auth/reauth', { credential: authenticator.assert(options) })).toMatchObject({
      status: 400,
      body: { error: 'This passkey is not recognised.' },
    });
    expect((await tech.get('/backup')).body.reauth).toBeUndefined();
  });

  it('ages with the session row: proved_at set back in the database asks again', async () => {
    const admin = await lab.login('admin', 'Quartz-Lantern-42');
    expect((await admin.get('/backup')).status).toBe(200);
    await sql(
      lab.databaseUrl,
      `UPDATE sessions SET proved_at = proved_at - interval '11 minutes' WHERE username_key = 'admin'`,
    );
    expect(await admin.get('/backup')).toMatchObject(CONFIRM);
  });

  it('limits wrong confirmations to 5 per session within 15 minutes', async () => {
    const rep = await lab.login('rep');
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await rep.post('/auth/reauth', { password: `wrong-${attempt}` })).status).toBe(400);
    const refused = await rep.post('/auth/reauth', { password: 'demo' });
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'Too many sign-in attempts. Try again in 15 minute(s).' },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
