import { generate } from 'otplib';
import { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/** api.md Accounts, MFA_REQUIRED_ROLES: a user of such a role without a factor may only set one up. */
const SET_UP_FIRST = { status: 403, body: { error: 'Set up two-step sign-in first.' } };

describe('roles that must have a second factor', () => {
  describe('the default outside demo mode: Managers', () => {
    let lab: TestApp;
    beforeAll(async () => {
      lab = await startTestApp({
        DEMO_DATA: '0',
        ADMIN_PASSWORD: 'a-long-lab-secret-77',
        // Unset: the default applies, not the tests' usual "nobody".
        MFA_REQUIRED_ROLES: undefined,
      });
    });
    afterAll(() => lab?.close());

    it('lets a Manager without a factor reach only /auth/* and GET /config until one is active', async () => {
      const answer = await lab.anonymous.post('/auth/login', {
        username: 'admin',
        password: 'a-long-lab-secret-77',
      });
      expect(answer.status).toBe(200);
      const admin = new ApiClient(lab.apiUrl, answer.body.token);
      for (const path of ['/cases', '/users', '/dashboard', '/backup'])
        expect(await admin.get(path)).toMatchObject(SET_UP_FIRST);
      expect(await admin.post('/users', { username: 'x', password: 'Lathe-Orbit-5151' })).toMatchObject(
        SET_UP_FIRST,
      );
      expect((await admin.get('/config')).status).toBe(200);
      expect((await admin.get('/auth/sessions')).status).toBe(200);
      expect((await admin.get('/auth/me')).body.mfa).toEqual({ totp: false, passkeys: 0, required: true });

      const setup = await admin.post('/auth/mfa/totp');
      const code = await generate({ secret: setup.body.secret });
      expect((await admin.post('/auth/mfa/totp/confirm', { code })).status).toBe(200);
      // The same session now reaches everything.
      expect((await admin.get('/cases')).status).toBe(200);
      expect((await admin.get('/auth/me')).body.mfa).toEqual({ totp: true, passkeys: 0, required: true });
      // And the next sign-in asks for the second step.
      expect(
        (await lab.anonymous.post('/auth/login', { username: 'admin', password: 'a-long-lab-secret-77' }))
          .body,
      ).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery'] });
      // Without its last factor the session is back to setting one up.
      expect((await admin.delete('/auth/mfa/totp')).status).toBe(204);
      expect(await admin.get('/cases')).toMatchObject(SET_UP_FIRST);
      expect((await admin.get('/auth/me')).body.mfa).toEqual({ totp: false, passkeys: 0, required: true });
    });
  });

  describe('a chosen list of roles', () => {
    let lab: TestApp;
    beforeAll(async () => {
      lab = await startTestApp({ MFA_REQUIRED_ROLES: 'Technician' });
    });
    afterAll(() => lab?.close());

    it('limits only the roles listed', async () => {
      const tech = await lab.login('tech');
      expect(await tech.get('/cases')).toMatchObject(SET_UP_FIRST);
      expect(await tech.get('/events')).toMatchObject(SET_UP_FIRST);
      expect((await tech.get('/auth/me')).body.mfa.required).toBe(true);
      const rep = await lab.login('rep');
      expect((await rep.get('/cases')).status).toBe(200);
      expect((await rep.get('/auth/me')).body.mfa.required).toBe(false);
    });
  });
});
