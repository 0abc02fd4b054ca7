import { DataSource } from 'typeorm';
import { EventStore } from '../backend/src/event-store/event-store';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import { sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

describe("a user's notification channels (User.notify)", () => {
  let lab: TestApp;
  let admin: ApiClient, tech: ApiClient, drLee: ApiClient;

  beforeAll(async () => {
    lab = await startTestApp();
    [admin, tech, drLee] = await Promise.all(['admin', 'tech', 'dr.lee'].map((name) => lab.login(name)));
  }, 60_000);
  afterAll(() => lab?.close());

  it('has both channels on by default, for every user', async () => {
    const users = await admin.get('/users');
    expect(users.status).toBe(200);
    expect(users.body.length).toBeGreaterThan(1);
    for (const user of users.body) expect(user.notify).toEqual({ push: true, email: true });
    expect((await drLee.get('/auth/me')).body.user.notify).toEqual({ push: true, email: true });
  });

  it('is changed by the user themself, one switch at a time', async () => {
    const off = await tech.put('/users/tech', { notify: { push: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ username: 'tech', notify: { push: false, email: true } });
    const both = await tech.put('/users/tech', { notify: { email: false } });
    expect(both.body.notify).toEqual({ push: false, email: false });
    expect((await tech.get('/users/tech')).body.notify).toEqual({ push: false, email: false });
    // Each change is an event of the user's stream.
    const events = await sql(
      lab.databaseUrl,
      `SELECT data FROM events WHERE stream_id = 'user-tech' AND type = 'UserUpdated' ORDER BY global_position`,
    );
    expect(events.map((row) => row.data.changes)).toEqual([
      { notify: { push: false, email: true } },
      { notify: { push: false, email: false } },
    ]);
    // The same value again is no change at all.
    expect((await tech.put('/users/tech', { notify: { push: false, email: false } })).status).toBe(200);
    expect(
      await sql(lab.databaseUrl, `SELECT count(*)::int AS n FROM events WHERE stream_id = 'user-tech'`),
    ).toEqual([{ n: 3 }]);
  });

  it('is changed by a Manager for anyone, and by nobody else for someone else', async () => {
    const changed = await admin.put('/users/dr.lee', { notify: { push: false, email: true } });
    expect(changed.status).toBe(200);
    expect(changed.body.notify).toEqual({ push: false, email: true });
    expect(await tech.put('/users/dr.lee', { notify: { push: true } })).toMatchObject({
      status: 403,
      body: { error: 'Only a manager can manage users.' },
    });
    expect(await drLee.put('/users/tech', { notify: { email: true } })).toMatchObject({ status: 403 });
    expect((await admin.get('/users/dr.lee')).body.notify).toEqual({ push: false, email: true });
  });

  it('answers 400 to a bad value and changes nothing', async () => {
    for (const notify of [true, 'off', [], { push: 'no' }, { email: 1 }, { push: true, sms: true }]) {
      const answer = await drLee.put('/users/dr.lee', { notify });
      expect(answer.status).toBe(400);
      expect(typeof answer.body.error).toBe('string');
    }
    expect((await drLee.get('/users/dr.lee')).body.notify).toEqual({ push: false, email: true });
  });

  it('survives backup and restore, and an older backup without it means both on', async () => {
    const backup = await admin.get('/backup');
    const techEntry = backup.body.users.find((user: { username: string }) => user.username === 'tech');
    expect(techEntry.notify).toEqual({ push: false, email: false });
    const older = {
      ...backup.body,
      users: backup.body.users.map(({ notify, ...user }: { notify: object; username: string }) =>
        user.username === 'dr.lee' ? user : { ...user, notify },
      ),
    };
    const restored = await admin.post('/restore', older);
    expect(restored.status).toBe(200);
    const users = (await admin.get('/users')).body as { username: string; notify: object }[];
    expect(users.find((user) => user.username === 'tech')!.notify).toEqual({ push: false, email: false });
    expect(users.find((user) => user.username === 'dr.lee')!.notify).toEqual({ push: true, email: true });
  });

  it('is rebuilt by replay exactly as the commands left it', async () => {
    const before = await sql(lab.databaseUrl, 'SELECT * FROM user_view ORDER BY username_key');
    const result = await new ProjectionRebuilder(lab.app.get(DataSource), lab.app.get(EventStore)).run();
    expect(result).toMatchObject({ state: 'done' });
    expect(await sql(lab.databaseUrl, 'SELECT * FROM user_view ORDER BY username_key')).toEqual(before);
  });
});
