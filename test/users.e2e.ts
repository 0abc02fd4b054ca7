import { startTestApp, type TestApp } from './support/test-app';
import { ApiClient } from './support/http';
import { failOnSecretsInAnswers } from './support/no-secrets';

failOnSecretsInAnswers();

const MANAGER_ONLY = { error: 'Only a manager can manage users.' };
const EMPTY_CREDENTIALS = { error: 'Username and password cannot be empty.' };
const ADMIN_UNDELETABLE = { error: 'The default admin user cannot be deleted.' };
const USER_NOT_FOUND = { error: 'User not found.' };
const DEMO_USERS = [
  {
    username: 'admin',
    role: 'Manager',
    email: null,
    activationSoundEnabled: true,
    notify: { push: true, email: true },
  },
  {
    username: 'designer',
    role: 'Designer',
    email: null,
    activationSoundEnabled: true,
    notify: { push: true, email: true },
  },
  {
    username: 'dr.lee',
    role: 'Doctor',
    email: null,
    activationSoundEnabled: true,
    notify: { push: true, email: true },
  },
  {
    username: 'dr.patel',
    role: 'Doctor',
    email: null,
    activationSoundEnabled: true,
    notify: { push: true, email: true },
  },
  {
    username: 'rep',
    role: 'Representative',
    email: null,
    activationSoundEnabled: true,
    notify: { push: true, email: true },
  },
  {
    username: 'tech',
    role: 'Technician',
    email: null,
    activationSoundEnabled: true,
    notify: { push: true, email: true },
  },
];

describe('users over HTTP', () => {
  let lab: TestApp;
  let admin: ApiClient, rep: ApiClient, designer: ApiClient, tech: ApiClient, drLee: ApiClient;
  let counter = 0;
  /** A fresh user of its own for a test that changes or deletes it. */
  const freshUser = async (role = 'Technician', password = 'Secret-Pw-8842') => {
    const username = `user${++counter}`;
    const created = await admin.post('/users', { username, password, role });
    expect(created.status).toBe(201);
    return { username, password, client: await lab.login(username, password) };
  };

  beforeAll(async () => {
    lab = await startTestApp();
    [admin, rep, designer, tech, drLee] = await Promise.all(
      ['admin', 'rep', 'designer', 'tech', 'dr.lee'].map((name) => lab.login(name)),
    );
  });
  afterAll(() => lab.close());

  describe('GET /users', () => {
    it('lists the public shape of every user to each staff role', async () => {
      for (const client of [admin, rep, designer, tech]) {
        const answer = await client.get('/users');
        expect(answer.status).toBe(200);
        // Other tests add users; the demo users are there, each with exactly the public fields.
        for (const user of DEMO_USERS) expect(answer.body).toContainEqual(user);
        for (const user of answer.body) {
          expect(Object.keys(user).sort()).toEqual([
            'activationSoundEnabled',
            'email',
            'notify',
            'role',
            'username',
          ]);
        }
      }
    });

    it('refuses a doctor with 403', async () => {
      expect(await drLee.get('/users')).toMatchObject({
        status: 403,
        body: { error: 'Doctors cannot list users.' },
      });
    });

    it('answers 304 to If-None-Match with the current ETag, and a new ETag once a user changes', async () => {
      const first = await rep.get('/users');
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      const unchanged = await rep.get('/users', { 'if-none-match': etag! });
      expect(unchanged.status).toBe(304);
      expect(unchanged.body).toBeUndefined();
      expect((await rep.get('/users', { 'if-none-match': '"stale"' })).status).toBe(200);

      await freshUser();
      const changed = await rep.get('/users', { 'if-none-match': etag! });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(changed.body.length).toBe(first.body.length + 1);
    });
  });

  describe('GET /users/{username}', () => {
    it('answers any user to a manager, in any letter case', async () => {
      expect(await admin.get('/users/tech')).toMatchObject({ status: 200, body: DEMO_USERS[5] });
      expect(await admin.get('/users/DR.LEE')).toMatchObject({ status: 200, body: DEMO_USERS[2] });
    });

    it('answers the caller themself, whatever their role', async () => {
      expect(await tech.get('/users/tech')).toMatchObject({ status: 200, body: DEMO_USERS[5] });
      expect(await drLee.get('/users/dr.lee')).toMatchObject({ status: 200, body: DEMO_USERS[2] });
      expect((await rep.get('/users/Rep')).status).toBe(200);
    });

    it('refuses anybody else with 403', async () => {
      for (const [client, other] of [
        [tech, 'rep'],
        [drLee, 'dr.patel'],
        [designer, 'admin'],
        [rep, 'nobody'],
      ] as const) {
        expect(await client.get(`/users/${other}`)).toMatchObject({
          status: 403,
          body: { error: 'You can only read your own user.' },
        });
      }
    });

    it('answers 404 for an unknown user', async () => {
      expect(await admin.get('/users/nobody')).toMatchObject({ status: 404, body: USER_NOT_FOUND });
    });
  });

  describe('POST /users', () => {
    it('creates a user: 201 with the public shape, who can then sign in', async () => {
      const created = await admin.post('/users', {
        username: 'Nina',
        password: 'p4ss word 7 river',
        role: 'Designer',
        email: 'nina@lab.example',
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        username: 'Nina',
        role: 'Designer',
        email: 'nina@lab.example',
        activationSoundEnabled: true,
        notify: { push: true, email: true },
      });
      const signedIn = await lab.anonymous.post('/auth/login', {
        username: 'nina',
        password: 'p4ss word 7 river',
      });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user.username).toBe('Nina');
      expect((await admin.get('/users')).body).toContainEqual(created.body);
    });

    it('defaults the role to Technician and accepts any letter case of a role', async () => {
      expect(
        (await admin.post('/users', { username: 'plain', password: 'Simple-pw1-river' })).body.role,
      ).toBe('Technician');
      expect(
        (
          await admin.post('/users', {
            username: 'shouty',
            password: 'Loud-voice-pw1',
            role: 'REPRESENTATIVE',
          })
        ).body.role,
      ).toBe('Representative');
    });

    it('refuses empty usernames and passwords, after trimming', async () => {
      for (const body of [
        { username: '', password: 'x' },
        { username: 'someone', password: '' },
        { username: '   ', password: 'x' },
        { username: 'someone', password: ' \t ' },
        { password: 'x' },
        { username: 'someone' },
        {},
      ]) {
        expect(await admin.post('/users', body)).toMatchObject({ status: 400, body: EMPTY_CREDENTIALS });
      }
      expect((await admin.get('/users/someone')).status).toBe(404);
    });

    it('refuses an unknown role with 400', async () => {
      expect(await admin.post('/users', { username: 'wizard', password: 'x', role: 'Wizard' })).toMatchObject(
        {
          status: 400,
          body: { error: 'Unknown role "Wizard".' },
        },
      );
      expect((await admin.get('/users/wizard')).status).toBe(404);
    });

    it('refuses a taken username in any letter case with 409', async () => {
      for (const username of ['rep', 'REP', ' Rep ', 'Admin']) {
        const answer = await admin.post('/users', { username, password: 'x', role: 'Manager' });
        expect(answer).toMatchObject({
          status: 409,
          body: { error: `Username "${username.trim()}" is already taken.` },
        });
      }
      expect((await admin.get('/users/rep')).body.role).toBe('Representative');
      expect((await lab.anonymous.post('/auth/login', { username: 'rep', password: 'x' })).status).toBe(401);
    });

    it('refuses every role but Manager with 403', async () => {
      for (const client of [rep, designer, tech, drLee]) {
        const answer = await client.post('/users', { username: 'sneaky', password: 'x', role: 'Manager' });
        expect(answer).toMatchObject({ status: 403, body: MANAGER_ONLY });
      }
      expect((await admin.get('/users/sneaky')).status).toBe(404);
    });
  });

  describe('PUT /users/{username}', () => {
    it('lets a user change their own sound preference, email and password', async () => {
      const { username, client } = await freshUser();
      const sound = await client.put(`/users/${username}`, { activationSoundEnabled: false });
      expect(sound).toMatchObject({ status: 200, body: { username, activationSoundEnabled: false } });
      const email = await client.put(`/users/${username}`, { email: 'me@lab.example' });
      expect(email.body).toEqual({
        username,
        role: 'Technician',
        email: 'me@lab.example',
        activationSoundEnabled: false,
        notify: { push: true, email: true },
      });

      const password = await client.put(`/users/${username}`, {
        password: 'n3w-Secret-Harbor',
        currentPassword: 'Secret-Pw-8842',
      });
      expect(password.status).toBe(200);
      expect(Object.keys(password.body).sort()).toEqual([
        'activationSoundEnabled',
        'email',
        'notify',
        'role',
        'username',
      ]);
      expect((await lab.anonymous.post('/auth/login', { username, password: 'Secret-Pw-8842' })).status).toBe(
        401,
      );
      const again = await lab.login(username, 'n3w-Secret-Harbor');
      expect((await again.get('/auth/me')).body.user).toEqual(email.body);
    });

    it('lets a doctor change their own preferences', async () => {
      const answer = await drLee.put('/users/dr.lee', { activationSoundEnabled: false });
      expect(answer).toMatchObject({
        status: 200,
        body: { username: 'dr.lee', activationSoundEnabled: false },
      });
      expect(
        (await drLee.put('/users/DR.LEE', { activationSoundEnabled: true })).body.activationSoundEnabled,
      ).toBe(true);
    });

    it('refuses a self role change with 403 and changes nothing', async () => {
      const { username, client } = await freshUser();
      expect(await client.put(`/users/${username}`, { role: 'Manager' })).toMatchObject({
        status: 403,
        body: MANAGER_ONLY,
      });
      // Not even along with fields a user may change.
      expect(
        await client.put(`/users/${username}`, { role: 'Manager', activationSoundEnabled: false }),
      ).toMatchObject({ status: 403 });
      expect((await admin.get(`/users/${username}`)).body).toMatchObject({
        role: 'Technician',
        activationSoundEnabled: true,
      });
    });

    it('refuses changes to somebody else by a non-manager with 403', async () => {
      for (const client of [rep, designer, tech, drLee]) {
        expect(await client.put('/users/admin', { password: 'owned' })).toMatchObject({
          status: 403,
          body: MANAGER_ONLY,
        });
        expect(await client.put('/users/dr.patel', { email: 'x@y.example' })).toMatchObject({ status: 403 });
      }
      expect((await lab.anonymous.post('/auth/login', { username: 'admin', password: 'owned' })).status).toBe(
        401,
      );
    });

    it('lets a manager change anybody, the role included', async () => {
      const { username, client } = await freshUser();
      const promoted = await admin.put(`/users/${username.toUpperCase()}`, {
        role: 'Designer',
        email: 'd@lab.example',
      });
      expect(promoted).toMatchObject({
        status: 200,
        body: { username, role: 'Designer', email: 'd@lab.example' },
      });
      // The existing session carries the new role at once.
      expect((await client.get('/auth/me')).body.user.role).toBe('Designer');
      const reset = await admin.put(`/users/${username}`, { password: 'from-admin-pw' });
      expect(reset.status).toBe(200);
      expect((await lab.anonymous.post('/auth/login', { username, password: 'from-admin-pw' })).status).toBe(
        200,
      );
      expect((await admin.put(`/users/${username}`, { email: null })).body.email).toBeNull();
    });

    it('refuses bad values with 400 and unknown users with 404', async () => {
      const { username } = await freshUser();
      expect(await admin.put(`/users/${username}`, { role: 'Wizard' })).toMatchObject({
        status: 400,
        body: { error: 'Unknown role "Wizard".' },
      });
      expect(await admin.put(`/users/${username}`, { email: 'not-an-email' })).toMatchObject({
        status: 400,
        body: { error: 'Email is not valid.' },
      });
      expect(await admin.put(`/users/${username}`, { password: '   ' })).toMatchObject({
        status: 400,
        body: { error: 'Password cannot be empty.' },
      });
      // null is no value for these (only an email can be cleared with null).
      for (const body of [
        { activationSoundEnabled: null },
        { password: null },
        { role: null },
        { activationSoundEnabled: 'no' },
      ]) {
        const answer = await admin.put(`/users/${username}`, body);
        expect(answer.status).toBe(400);
        expect(typeof answer.body.error).toBe('string');
      }
      expect(await admin.put('/users/admin', { role: 'Technician' })).toMatchObject({
        status: 400,
        body: { error: 'The default admin user must stay a Manager.' },
      });
      expect(await admin.put('/users/nobody', { email: 'x@y.example' })).toMatchObject({
        status: 404,
        body: USER_NOT_FOUND,
      });
      expect((await admin.get(`/users/${username}`)).body).toEqual({
        username,
        role: 'Technician',
        email: null,
        activationSoundEnabled: true,
        notify: { push: true, email: true },
      });
    });
  });

  describe('passwords (api.md Security)', () => {
    const TOO_SHORT = { error: 'Password must be at least 12 characters.' };
    const WRONG_CURRENT = { error: 'The current password is incorrect.' };

    it('refuses new passwords shorter than 12 characters, after the empty-field and duplicate checks', async () => {
      for (const password of ['x', '12345678901', ' 11-chars-x']) {
        expect(await admin.post('/users', { username: 'shorty', password })).toMatchObject({
          status: 400,
          body: TOO_SHORT,
        });
      }
      expect((await admin.get('/users/shorty')).status).toBe(404);
      expect(await admin.post('/users', { username: '', password: 'x' })).toMatchObject({
        status: 400,
        body: EMPTY_CREDENTIALS,
      });
      expect(await admin.post('/users', { username: 'Rep', password: 'x' })).toMatchObject({
        status: 409,
        body: { error: 'Username "Rep" is already taken.' },
      });
      expect((await admin.post('/users', { username: 'shorty', password: 'Twelve-chars' })).status).toBe(201);

      const { username } = await freshUser();
      expect(await admin.put(`/users/${username}`, { password: 'short' })).toMatchObject({
        status: 400,
        body: TOO_SHORT,
      });
      expect(await admin.put(`/users/${username}`, { password: '' })).toMatchObject({
        status: 400,
        body: { error: 'Password cannot be empty.' },
      });
      expect((await lab.anonymous.post('/auth/login', { username, password: 'Secret-Pw-8842' })).status).toBe(
        200,
      );
    });

    it('refuses a common password or one holding the username, on creation and on a change (api.md Accounts)', async () => {
      const TOO_EASY = {
        status: 400,
        body: { error: 'This password is too easy to guess. Choose another.' },
      };
      for (const password of ['password1234', 'Qwertyuiop123!', '2024-sunshine-!', 'my-Gideon-is-here'])
        expect(await admin.post('/users', { username: 'gideon', password, role: 'Designer' })).toMatchObject(
          TOO_EASY,
        );
      expect((await admin.get('/users/gideon')).status).toBe(404);
      const { username, client, password } = await freshUser();
      expect(await admin.put(`/users/${username}`, { password: 'iloveyou2024!' })).toMatchObject(TOO_EASY);
      expect(
        await client.put(`/users/${username}`, {
          password: `${username.toUpperCase()}-river-77`,
          currentPassword: password,
        }),
      ).toMatchObject(TOO_EASY);
      expect((await lab.anonymous.post('/auth/login', { username, password })).status).toBe(200);
    });

    it('needs the current password for a self-change, a Manager changing their own included', async () => {
      for (const role of ['Technician', 'Manager']) {
        const { username, client } = await freshUser(role);
        for (const body of [
          { password: 'brand-new-pw' },
          { password: 'brand-new-pw', currentPassword: 'wrong-one' },
          { password: 'brand-new-pw', currentPassword: '' },
        ]) {
          expect(await client.put(`/users/${username}`, body)).toMatchObject({
            status: 400,
            body: WRONG_CURRENT,
          });
        }
        expect(
          (await lab.anonymous.post('/auth/login', { username, password: 'Secret-Pw-8842' })).status,
        ).toBe(200);
        const changed = await client.put(`/users/${username}`, {
          password: 'brand-new-pw',
          currentPassword: 'Secret-Pw-8842',
        });
        expect(changed.status).toBe(200);
        expect((await lab.anonymous.post('/auth/login', { username, password: 'brand-new-pw' })).status).toBe(
          200,
        );
      }
      // A Manager resetting somebody else's password needs no current password of theirs.
      const { username } = await freshUser();
      expect((await admin.put(`/users/${username}`, { password: 'reset-by-admin' })).status).toBe(200);
    });

    it('a self-change ends every other session of the user; the caller stays signed in', async () => {
      const { username, client } = await freshUser();
      const phone = await lab.login(username, 'Secret-Pw-8842');
      const laptop = await lab.login(username, 'Secret-Pw-8842');
      expect((await phone.get('/auth/me')).status).toBe(200);
      expect(
        (
          await client.put(`/users/${username}`, {
            password: 'changed-pw-Otter',
            currentPassword: 'Secret-Pw-8842',
          })
        ).status,
      ).toBe(200);
      expect(await phone.get('/auth/me')).toMatchObject({ status: 401, body: { error: 'Not signed in.' } });
      expect((await laptop.get('/cases')).status).toBe(401);
      expect((await client.get('/auth/me')).status).toBe(200);
    });

    it("a Manager's reset ends every session of that user and none of the Manager's", async () => {
      const { username, client } = await freshUser();
      const other = await lab.login(username, 'Secret-Pw-8842');
      expect((await client.get('/auth/me')).status).toBe(200);
      expect((await admin.put(`/users/${username}`, { password: 'reset-pw-Otter-1' })).status).toBe(200);
      expect((await client.get('/auth/me')).status).toBe(401);
      expect((await other.get('/auth/me')).status).toBe(401);
      expect((await admin.get('/auth/me')).status).toBe(200);
      // Changes that are not the password leave the sessions alone.
      const fresh = await lab.login(username, 'reset-pw-Otter-1');
      expect((await admin.put(`/users/${username}`, { email: 'kept@lab.example' })).status).toBe(200);
      expect((await fresh.get('/auth/me')).status).toBe(200);
    });
  });

  describe('POST /users/{username}/sessions/end', () => {
    it("ends every session of that user (204) and none of anybody else's", async () => {
      const { username, client } = await freshUser();
      const second = await lab.login(username, 'Secret-Pw-8842');
      expect((await client.get('/auth/me')).status).toBe(200);
      const answer = await admin.post(`/users/${username.toUpperCase()}/sessions/end`);
      expect(answer.status).toBe(204);
      expect(answer.body).toBeUndefined();
      expect(await client.get('/auth/me')).toMatchObject({ status: 401, body: { error: 'Not signed in.' } });
      expect((await second.get('/auth/me')).status).toBe(401);
      expect((await admin.get('/auth/me')).status).toBe(200);
      expect((await rep.get('/auth/me')).status).toBe(200);
      // The user can sign in again.
      expect((await lab.login(username, 'Secret-Pw-8842')).token).toBeTruthy();
    });

    it('answers 404 for an unknown user and 403 to every role but Manager', async () => {
      expect(await admin.post('/users/nobody/sessions/end')).toMatchObject({
        status: 404,
        body: USER_NOT_FOUND,
      });
      const { username, client } = await freshUser();
      for (const caller of [rep, designer, tech, drLee]) {
        expect(await caller.post(`/users/${username}/sessions/end`)).toMatchObject({
          status: 403,
          body: MANAGER_ONLY,
        });
      }
      expect((await client.get('/auth/me')).status).toBe(200);
    });
  });

  describe('DELETE /users/{username}', () => {
    it('deletes a user: 204, then 404, gone from the list, and unable to sign in', async () => {
      const { username, password } = await freshUser('Representative');
      const answer = await admin.delete(`/users/${username}`);
      expect(answer.status).toBe(204);
      expect(answer.body).toBeUndefined();
      expect(await admin.get(`/users/${username}`)).toMatchObject({ status: 404, body: USER_NOT_FOUND });
      expect(
        (await admin.get('/users')).body.map((user: { username: string }) => user.username),
      ).not.toContain(username);
      expect(await lab.anonymous.post('/auth/login', { username, password })).toMatchObject({
        status: 401,
        body: { error: 'Invalid username or password.' },
      });
      expect(await admin.delete(`/users/${username}`)).toMatchObject({ status: 404, body: USER_NOT_FOUND });
    });

    it("ends a deleted user's sessions at once", async () => {
      const { username, client } = await freshUser('Manager');
      expect((await client.get('/cases')).status).toBe(200);
      expect((await admin.delete(`/users/${username}`)).status).toBe(204);
      expect(await client.get('/auth/me')).toMatchObject({ status: 401, body: { error: 'Not signed in.' } });
      expect((await client.get('/cases')).status).toBe(401);
      expect((await client.post('/users', { username: 'revenge', password: 'x' })).status).toBe(401);
    });

    it("never gives a deleted user's username out again, in any letter case (api.md Accounts)", async () => {
      const { username, password } = await freshUser();
      await admin.delete(`/users/${username}`);
      for (const name of [username, username.toUpperCase()])
        expect(
          await admin.post('/users', { username: name, password: 'Second-pw-Harbor', role: 'Designer' }),
        ).toMatchObject({
          status: 409,
          body: { error: 'That username belonged to a deleted user. Choose another.' },
        });
      expect((await admin.get(`/users/${username}`)).status).toBe(404);
      expect((await lab.anonymous.post('/auth/login', { username, password })).status).toBe(401);
      expect(
        (await lab.anonymous.post('/auth/login', { username, password: 'Second-pw-Harbor' })).status,
      ).toBe(401);
    });

    it('never deletes the admin user, in any letter case', async () => {
      for (const name of ['admin', 'ADMIN', 'Admin']) {
        expect(await admin.delete(`/users/${name}`)).toMatchObject({ status: 400, body: ADMIN_UNDELETABLE });
      }
      expect((await admin.get('/auth/me')).status).toBe(200);
      expect((await admin.get('/users/admin')).status).toBe(200);
    });

    it('answers 404 for an unknown user', async () => {
      expect(await admin.delete('/users/nobody')).toMatchObject({ status: 404, body: USER_NOT_FOUND });
    });

    it('refuses every role but Manager with 403', async () => {
      for (const client of [rep, designer, tech, drLee]) {
        expect(await client.delete('/users/dr.patel')).toMatchObject({ status: 403, body: MANAGER_ONLY });
        expect(await client.delete('/users/admin')).toMatchObject({ status: 403 });
      }
      expect((await admin.get('/users/dr.patel')).status).toBe(200);
    });
  });
});
