import { generate } from 'otplib';
import { Clock } from '../backend/src/common/clock';
import { sql } from './support/helpers';
import { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';
import { VirtualAuthenticator } from './support/webauthn';

/** api.md Accounts, two-step sign-in: authenticator app, recovery codes, passkeys. */
const PUBLIC_URL = 'http://localhost:3000/';
const CODE_INVALID = { status: 401, body: { error: 'The code is not valid.' } };
const SIGN_IN_AGAIN = { status: 401, body: { error: 'Sign in again.' } };

describe('two-step sign-in', () => {
  let lab: TestApp;
  let clock: Clock;
  /** Where the server's clock stands, moved by the tests instead of sleeping. */
  let now = Date.now();

  beforeAll(async () => {
    lab = await startTestApp({ PUBLIC_URL });
    clock = lab.app.get(Clock);
    jest.spyOn(clock, 'now').mockImplementation(() => now);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await lab?.close();
  });

  const codeAt = (secret: string, at = now) => generate({ secret, epoch: Math.floor(at / 1000) });
  const password = (username: string, extra: Record<string, unknown> = {}) =>
    lab.anonymous.post('/auth/login', { username, password: 'demo', ...extra });

  /** Sets up the authenticator app of a signed-in user; its secret and recovery codes. */
  const enrolTotp = async (client: ApiClient) => {
    const setup = await client.post('/auth/mfa/totp');
    expect(setup.status).toBe(200);
    const confirmed = await client.post('/auth/mfa/totp/confirm', { code: await codeAt(setup.body.secret) });
    expect(confirmed.status).toBe(200);
    // The next sign-in must not reuse the confirmation's time step.
    now += 30_000;
    return { secret: setup.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  };

  it('sets up an authenticator app: pending until a code of it is confirmed, then 10 recovery codes', async () => {
    const tech = await lab.login('tech');
    const setup = await tech.post('/auth/mfa/totp');
    expect(setup).toMatchObject({ status: 200, body: { secret: expect.stringMatching(/^[A-Z2-7]{16,}$/) } });
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/AlignerFlow:tech\?/);
    expect(setup.body.otpauthUrl).toContain(`secret=${setup.body.secret}`);
    // Not active yet: the password alone still signs in.
    expect((await password('tech')).body.token).toEqual(expect.any(String));
    expect((await tech.get('/auth/me')).body.mfa).toEqual({ totp: false, passkeys: 0, required: false });

    for (const code of ['000000', 'abcdef', await codeAt(setup.body.secret, now - 5 * 60_000)])
      expect(await tech.post('/auth/mfa/totp/confirm', { code })).toMatchObject({
        status: 400,
        body: { error: 'The code is not valid.' },
      });
    const confirmed = await tech.post('/auth/mfa/totp/confirm', { code: await codeAt(setup.body.secret) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    expect((await tech.get('/auth/me')).body.mfa).toEqual({ totp: true, passkeys: 0, required: false });
    // Only hashes are stored, and the secret not in clear.
    const [totp] = await sql(lab.databaseUrl, `SELECT secret FROM mfa_totp WHERE username_key = 'tech'`);
    expect(totp.secret).not.toContain(setup.body.secret);
    const hashes = await sql(
      lab.databaseUrl,
      `SELECT code_hash FROM mfa_recovery_codes WHERE username_key = 'tech'`,
    );
    expect(hashes).toHaveLength(10);
    for (const code of confirmed.body.recoveryCodes)
      expect(JSON.stringify(hashes)).not.toContain(code.replace('-', ''));

    // Removed, and its recovery codes with it (no factor left to recover); set up again for the next tests.
    expect((await tech.delete('/auth/mfa/totp')).status).toBe(204);
    expect((await tech.get('/auth/me')).body.mfa.totp).toBe(false);
    expect(
      await sql(lab.databaseUrl, `SELECT 1 FROM mfa_recovery_codes WHERE username_key = 'tech'`),
    ).toEqual([]);
    expect((await password('tech')).body.token).toEqual(expect.any(String));
    await enrolTotp(tech);
  });

  it('asks a user with a factor for a second step, which accepts each code once', async () => {
    const rep = await lab.login('rep');
    const { secret } = await enrolTotp(rep);

    const first = await password('rep', { rememberMe: true });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      mfaRequired: true,
      mfaToken: expect.any(String),
      methods: ['totp', 'recovery'],
    });
    expect(first.headers.get('set-cookie')).toBeNull();
    expect((await new ApiClient(lab.apiUrl, first.body.mfaToken).get('/auth/me')).status).toBe(401);

    const code = await codeAt(secret);
    const signedIn = await lab.anonymous.post('/auth/login/mfa', { mfaToken: first.body.mfaToken, code });
    expect(signedIn).toMatchObject({
      status: 200,
      body: { user: { username: 'rep' }, token: expect.any(String) },
    });
    expect(signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith('af_session='))).toMatch(
      /Expires=/,
    );
    expect((await new ApiClient(lab.apiUrl, signedIn.body.token).get('/auth/me')).status).toBe(200);
    // The token is used up; the same code, on a new token, is refused (replay).
    expect(
      await lab.anonymous.post('/auth/login/mfa', { mfaToken: first.body.mfaToken, code }),
    ).toMatchObject(SIGN_IN_AGAIN);
    const second = (await password('rep')).body.mfaToken;
    expect(await lab.anonymous.post('/auth/login/mfa', { mfaToken: second, code })).toMatchObject(
      CODE_INVALID,
    );
    now += 30_000;
    expect(
      (await lab.anonymous.post('/auth/login/mfa', { mfaToken: second, code: await codeAt(secret) })).status,
    ).toBe(200);
    // Exactly one way per step.
    expect(
      await lab.anonymous.post('/auth/login/mfa', { mfaToken: second, code: '123456', recoveryCode: 'x' }),
    ).toMatchObject({ status: 400 });
  });

  it('kills an mfaToken at its 5th wrong code, and after 5 minutes', async () => {
    const designer = await lab.login('designer');
    const { secret } = await enrolTotp(designer);
    const { mfaToken } = (await password('designer')).body;
    for (let attempt = 1; attempt <= 5; attempt++)
      expect(await lab.anonymous.post('/auth/login/mfa', { mfaToken, code: '000000' })).toMatchObject(
        CODE_INVALID,
      );
    expect(
      await lab.anonymous.post('/auth/login/mfa', { mfaToken, code: await codeAt(secret) }),
    ).toMatchObject(SIGN_IN_AGAIN);

    const late = (await password('designer')).body.mfaToken;
    now += 5 * 60_000 + 1_000;
    expect(
      await lab.anonymous.post('/auth/login/mfa', { mfaToken: late, code: await codeAt(secret) }),
    ).toMatchObject(SIGN_IN_AGAIN);
    expect(
      await lab.anonymous.post('/auth/login/mfa', { mfaToken: 'made-up', code: '123456' }),
    ).toMatchObject(SIGN_IN_AGAIN);
  });

  it('accepts each recovery code once, in any letter case', async () => {
    const drLee = await lab.login('dr.lee');
    const { recoveryCodes } = await enrolTotp(drLee);
    const [code] = recoveryCodes;
    const first = (await password('dr.lee')).body.mfaToken;
    expect(
      (
        await lab.anonymous.post('/auth/login/mfa', {
          mfaToken: first,
          recoveryCode: ` ${code.toUpperCase()} `,
        })
      ).status,
    ).toBe(200);
    const again = (await password('dr.lee')).body.mfaToken;
    expect(
      await lab.anonymous.post('/auth/login/mfa', { mfaToken: again, recoveryCode: code }),
    ).toMatchObject(CODE_INVALID);
    expect(
      (await lab.anonymous.post('/auth/login/mfa', { mfaToken: again, recoveryCode: recoveryCodes[1] }))
        .status,
    ).toBe(200);
  });

  it('registers passkeys whose real signatures sign in alone or as the second step', async () => {
    const authenticator = new VirtualAuthenticator('http://localhost:3000', 'localhost');
    const patel = await lab.login('dr.patel');
    const options = await patel.post('/auth/passkeys/options');
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({
      rp: { id: 'localhost', name: 'AlignerFlow' },
      user: { name: 'dr.patel' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const credential = authenticator.register(options.body);
    const created = await patel.post('/auth/passkeys', { credential, name: 'Laptop' });
    expect(created).toMatchObject({
      status: 201,
      body: { id: credential.id, name: 'Laptop', createdAt: expect.any(String) },
    });
    // A challenge is used once.
    expect(await patel.post('/auth/passkeys', { credential, name: 'Again' })).toMatchObject({
      status: 400,
      body: { error: 'The passkey could not be verified. Try again.' },
    });
    // Another origin's registration is refused.
    const elsewhere = new VirtualAuthenticator('http://evil.example', 'localhost');
    const evil = elsewhere.register((await patel.post('/auth/passkeys/options')).body);
    expect((await patel.post('/auth/passkeys', { credential: evil, name: 'Evil' })).status).toBe(400);
    expect((await patel.get('/auth/passkeys')).body).toEqual([created.body]);
    expect((await patel.get('/auth/me')).body.mfa).toEqual({ totp: false, passkeys: 1, required: false });

    // A passkey alone: discoverable (no allowed list), user verification required.
    const alone = await lab.anonymous.post('/auth/passkeys/login/options', {});
    expect(alone.body).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(alone.body.allowCredentials ?? []).toEqual([]);
    const signedIn = await lab.anonymous.post('/auth/passkeys/login', {
      credential: authenticator.assert(alone.body),
    });
    expect(signedIn).toMatchObject({
      status: 200,
      body: { user: { username: 'dr.patel' }, token: expect.any(String) },
    });
    // The same assertion again (its challenge used), or one from another origin: refused.
    const replay = await lab.anonymous.post('/auth/passkeys/login', {
      credential: authenticator.assert(alone.body),
    });
    expect(replay).toMatchObject({ status: 401, body: { error: 'This passkey is not recognised.' } });
    const fresh = (await lab.anonymous.post('/auth/passkeys/login/options', {})).body;
    expect(
      (
        await lab.anonymous.post('/auth/passkeys/login', {
          credential: authenticator.assert(fresh, undefined, 'http://evil.example'),
        })
      ).status,
    ).toBe(401);

    // As the second step after the password.
    const first = await password('dr.patel');
    expect(first.body).toMatchObject({ mfaRequired: true, methods: ['passkey'] });
    const stepOptions = await lab.anonymous.post('/auth/passkeys/login/options', {
      mfaToken: first.body.mfaToken,
    });
    expect(stepOptions.body.allowCredentials).toEqual([expect.objectContaining({ id: credential.id })]);
    const second = await lab.anonymous.post('/auth/login/mfa', {
      mfaToken: first.body.mfaToken,
      credential: authenticator.assert(stepOptions.body),
    });
    expect(second).toMatchObject({ status: 200, body: { user: { username: 'dr.patel' } } });

    expect((await patel.delete(`/auth/passkeys/${encodeURIComponent(credential.id)}`)).status).toBe(204);
    expect((await patel.delete(`/auth/passkeys/${encodeURIComponent(credential.id)}`)).status).toBe(404);
    expect((await password('dr.patel')).body).toMatchObject({
      user: { username: 'dr.patel' },
      token: expect.any(String),
    });
  });

  it("lets a Manager reset a user's factors, which ends their sessions", async () => {
    const patel = await lab.login('dr.patel');
    const { recoveryCodes } = await enrolTotp(patel);
    const first = (await password('dr.patel')).body;
    expect(first.mfaRequired).toBe(true);
    const signedIn = await lab.anonymous.post('/auth/login/mfa', {
      mfaToken: first.mfaToken,
      recoveryCode: recoveryCodes[0],
    });
    const session = new ApiClient(lab.apiUrl, signedIn.body.token);
    expect((await session.get('/auth/me')).status).toBe(200);

    const admin = await lab.login('admin');
    expect(
      (await admin.post('/users', { username: 'helper', password: 'Lathe-Orbit-5151', role: 'Technician' }))
        .status,
    ).toBe(201);
    const helper = await lab.login('helper', 'Lathe-Orbit-5151');
    expect(await helper.post('/users/dr.patel/mfa/reset')).toMatchObject({
      status: 403,
      body: { error: 'Only a manager can manage users.' },
    });
    expect(await admin.post('/users/nobody/mfa/reset')).toMatchObject({ status: 404 });
    expect((await admin.post('/users/DR.PATEL/mfa/reset')).status).toBe(204);

    expect((await session.get('/auth/me')).status).toBe(401);
    const again = await password('dr.patel');
    expect(again.body).toMatchObject({ user: { username: 'dr.patel' }, token: expect.any(String) });
    expect((await new ApiClient(lab.apiUrl, again.body.token).get('/auth/me')).body.mfa).toEqual({
      totp: false,
      passkeys: 0,
      required: false,
    });
    const [{ n }] = await sql(
      lab.databaseUrl,
      `SELECT (SELECT count(*) FROM mfa_recovery_codes WHERE username_key = 'dr.patel') +
              (SELECT count(*) FROM mfa_totp WHERE username_key = 'dr.patel') AS n`,
    );
    expect(Number(n)).toBe(0);
  });
});
