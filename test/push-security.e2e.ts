import { mkdtempSync, rmSync } from 'node:fs';
import { globalAgent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { eventually, sql, withEnv } from './support/helpers';
import type { ApiClient } from './support/http';
import { PushService, type BrowserSubscription } from './support/push-service';
import { startTestApp, type TestApp } from './support/test-app';

const NOT_ALLOWED = { status: 400, body: { error: 'Push endpoint not allowed.' } };

/**
 * api.md, Security: push endpoints are user input the server sends to, so only `https://` on
 * public addresses (or a `host:port` of PUSH_ALLOWED_HOSTS), at most 10 per user, and none left
 * behind by a deleted user. The real app on a real database, with two local push services: one
 * listed in PUSH_ALLOWED_HOSTS, and one that is not ("internal": it stands for anything on the
 * server's own network).
 */
describe('push endpoints: where the server may be made to send', () => {
  let lab: TestApp;
  let listed: PushService;
  let internal: PushService;
  let dataDir: string;
  let admin: ApiClient, drLee: ApiClient, drPatel: ApiClient, rep: ApiClient, designer: ApiClient;
  const savedCa = globalAgent.options.ca;

  beforeAll(async () => {
    [listed, internal] = await Promise.all([PushService.start(), PushService.start()]);
    // The in-process worker sends to listed push services through Node's global agent.
    globalAgent.options.ca = [...rootCertificates, listed.caPem];
    dataDir = mkdtempSync(join(tmpdir(), 'af-push-security-'));
    lab = await withEnv({ PUSH_ALLOWED_HOSTS: listed.host, NOTIFICATIONS_BACKOFF_MS: '1500' }, () =>
      startTestApp({ DATA_DIR: dataDir }),
    );
    [admin, drLee, drPatel, rep, designer] = await Promise.all(
      ['admin', 'dr.lee', 'dr.patel', 'rep', 'designer'].map((name) => lab.login(name)),
    );
    const { publicKey } = (await lab.anonymous.get('/push/vapid-public-key')).body;
    listed.expectVapidKey(publicKey);
    internal.expectVapidKey(publicKey);
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
    await Promise.all([listed?.close(), internal?.close()]);
    globalAgent.options.ca = savedCa;
    globalAgent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const subscriptionsOf = async (username: string) =>
    (
      await sql<{ endpoint: string }>(
        lab.databaseUrl,
        'SELECT endpoint FROM push_subscriptions WHERE username = $1 ORDER BY id',
        [username],
      )
    ).map((row) => row.endpoint);

  const delivery = async (username: string, final = true) => {
    let row: any;
    await eventually(
      async () => {
        const rows = (await admin.get('/notifications/deliveries?limit=500')).body;
        row = rows.find((item: { username: string }) => item.username === username);
        return row !== undefined && (!final || row.status !== 'queued');
      },
      15_000,
      `the delivery to ${username}`,
    );
    return row;
  };

  const clearDeliveries = () => sql(lab.databaseUrl, 'DELETE FROM notification_deliveries');

  it('refuses loopback, private, link-local, shared, unique-local, metadata and http endpoints', async () => {
    const keys = internal.subscribe().keys;
    const port = new URL(internal.url).port;
    const refused = [
      `https://127.0.0.1:${port}/push/a`,
      'https://127.8.9.10/push/a',
      'https://10.1.2.3/push/a',
      'https://172.16.0.1/push/a',
      'https://172.31.255.254/push/a',
      'https://192.168.1.20:8443/push/a',
      'https://100.64.0.1/push/a',
      'https://169.254.1.1/push/a',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00:ec2::254]/latest/meta-data/',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://0.0.0.0/push/a',
      'https://224.0.0.1/push/a',
      'https://255.255.255.255/push/a',
      'https://[::1]/push/a',
      'https://[fe80::1]/push/a',
      'https://[fc00::1]/push/a',
      'https://[fd12:3456::1]/push/a',
      'https://[::ffff:127.0.0.1]/push/a',
      'https://[::ffff:a9fe:a9fe]/push/a',
      // A name is judged by what it resolves to: localhost is the loopback address.
      `https://localhost:${port}/push/a`,
      'https://push.service.invalid/push/a',
      // https only, even for a listed host.
      'http://push.example.com/push/a',
      `http://${listed.host}/push/a`,
    ];
    for (const endpoint of refused) {
      expect([
        endpoint,
        await drLee.post('/push/subscribe', { endpoint, expirationTime: null, keys }),
      ]).toEqual([endpoint, expect.objectContaining(NOT_ALLOWED)]);
    }
    expect(await subscriptionsOf('dr.lee')).toEqual([]);
    expect(internal.connections).toBe(0);

    // A public address is accepted (no push is sent to it: the subscription is removed again).
    const publicEndpoint = 'https://203.0.114.7/push/public-device';
    expect((await rep.post('/push/subscribe', { endpoint: publicEndpoint, keys })).status).toBe(201);
    expect(await subscriptionsOf('rep')).toEqual([publicEndpoint]);
    expect((await rep.post('/push/unsubscribe', { endpoint: publicEndpoint })).status).toBe(204);
  });

  it('accepts a host:port of PUSH_ALLOWED_HOSTS, and delivers there', async () => {
    await clearDeliveries();
    const device = listed.subscribe();
    expect((await drLee.post('/push/subscribe', device)).status).toBe(201);
    expect(await admin.post('/push/send/dr.lee', { title: 'Hello', body: 'From the lab' })).toMatchObject({
      status: 202,
      body: { queued: 1 },
    });
    await listed.waitFor(() => listed.receivedBy(device).length === 1);
    expect(listed.receivedBy(device)[0].payload).toMatchObject({ title: 'Hello', body: 'From the lab' });
    expect(await delivery('dr.lee')).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(internal.connections).toBe(0);
    expect((await drLee.post('/push/unsubscribe', { endpoint: device.endpoint })).status).toBe(204);
  });

  it('keeps no more of what a push service answers than its status, and follows no redirect', async () => {
    const device = listed.subscribe();
    expect((await drPatel.post('/push/subscribe', device)).status).toBe(201);

    await clearDeliveries();
    // A push service that answers 403 with a text: only the status is kept.
    listed.expectVapidKey('not-the-key-it-signs-with');
    expect((await admin.post('/push/send/dr.patel', { body: 'One' })).status).toBe(202);
    const refused = await delivery('dr.patel');
    listed.expectVapidKey((await lab.anonymous.get('/push/vapid-public-key')).body.publicKey);
    expect(listed.rejected.map((rejection) => rejection.status)).toEqual([403]);
    expect(refused).toMatchObject({ status: 'failed', attempts: 1, lastError: 'push service answered 403' });

    await clearDeliveries();
    listed.script(device, [302]);
    expect((await admin.post('/push/send/dr.patel', { body: 'Two' })).status).toBe(202);
    expect(await delivery('dr.patel')).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'push service answered 302 (redirects are not followed)',
    });
    expect(listed.receivedBy(device)).toEqual([]);
    expect((await drPatel.post('/push/unsubscribe', { endpoint: device.endpoint })).status).toBe(204);
  });

  it('refuses at send time a stored endpoint on a private address, without connecting to it', async () => {
    const insert = (endpoint: string, keys: BrowserSubscription['keys']) =>
      sql(
        lab.databaseUrl,
        `INSERT INTO push_subscriptions (username, endpoint, keys) VALUES ('tech', $1, $2)`,
        [endpoint, JSON.stringify(keys)],
      );
    const port = new URL(internal.url).port;
    const byAddress = internal.subscribe();
    const byName = internal.subscribe();

    // Stored before the checks existed: a literal loopback address…
    await clearDeliveries();
    await insert(byAddress.endpoint, byAddress.keys);
    expect(await admin.post('/push/send/tech', { body: 'Hello' })).toMatchObject({
      status: 202,
      body: { queued: 1 },
    });
    expect(await delivery('tech')).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'Push endpoint not allowed: 127.0.0.1 is a loopback address.',
    });

    // …and a name that resolves to it, refused by the lookup the connection itself uses.
    await sql(lab.databaseUrl, `DELETE FROM push_subscriptions WHERE username = 'tech'`);
    await clearDeliveries();
    await insert(`https://localhost:${port}/push/${byName.id}`, byName.keys);
    expect((await admin.post('/push/send/tech', { body: 'Hello' })).status).toBe(202);
    const row = await delivery('tech');
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.lastError).toMatch(
      /^Push endpoint not allowed: localhost resolves to (127\.0\.0\.1|::1), a loopback address\.$/,
    );

    expect(internal.connections).toBe(0);
    expect(internal.received).toEqual([]);
    await sql(lab.databaseUrl, `DELETE FROM push_subscriptions WHERE username = 'tech'`);
  });

  it('keeps at most 10 subscriptions per user: an eleventh replaces the oldest', async () => {
    const devices = Array.from({ length: 11 }, () => listed.subscribe());
    for (const device of devices.slice(0, 10))
      expect((await designer.post('/push/subscribe', device)).status).toBe(201);
    expect(await subscriptionsOf('designer')).toHaveLength(10);
    // Subscribing again refreshes a browser: the first one is now the newest.
    expect((await designer.post('/push/subscribe', devices[0])).status).toBe(201);
    expect((await designer.post('/push/subscribe', devices[10])).status).toBe(201);
    expect((await subscriptionsOf('designer')).sort()).toEqual(
      [devices[0], ...devices.slice(2)].map((device) => device.endpoint).sort(),
    );

    // Many at once: still 10, the newest ones.
    const burst = Array.from({ length: 16 }, () => listed.subscribe());
    const answers = await Promise.all(burst.map((device) => designer.post('/push/subscribe', device)));
    expect(answers.map((answer) => answer.status)).toEqual(burst.map(() => 201));
    const kept = await subscriptionsOf('designer');
    expect(kept).toHaveLength(10);
    expect(kept.every((endpoint) => burst.some((device) => device.endpoint === endpoint))).toBe(true);
    expect(await admin.post('/push/send/designer', { body: 'x' })).toMatchObject({ body: { queued: 10 } });
    await sql(lab.databaseUrl, `DELETE FROM push_subscriptions WHERE username = 'designer'`);
  });

  it("removes a deleted user's subscriptions and FCM tokens; nothing reaches them, and the name is not given out again", async () => {
    await clearDeliveries();
    const password = 'long-enough-password';
    expect((await admin.post('/users', { username: 'dr.gone', password, role: 'Doctor' })).status).toBe(201);
    const gone = await lab.login('dr.gone', password);
    const [phone, laptop] = [listed.subscribe(), listed.subscribe()];
    expect((await gone.post('/push/subscribe', phone)).status).toBe(201);
    expect((await gone.post('/push/subscribe', laptop)).status).toBe(201);
    expect((await gone.put('/push/fcm-token', { token: 'fcm-token-of-dr-gone' })).status).toBe(204);

    // A message on its way: the phone answers 500 once, so it is retried after the deletion.
    listed.script(phone, [500]);
    listed.script(laptop, [500]);
    expect(await admin.post('/push/send/dr.gone', { body: 'Before' })).toMatchObject({
      body: { queued: 2 },
    });
    await eventually(
      async () => (await delivery('dr.gone', false)).lastError === 'push service answered 500',
      15_000,
      'the first attempt',
    );
    expect((await admin.delete('/users/dr.gone')).status).toBe(204);

    await eventually(
      async () =>
        (await subscriptionsOf('dr.gone')).length === 0 &&
        (await sql(lab.databaseUrl, `SELECT 1 FROM fcm_tokens WHERE username = 'dr.gone'`)).length === 0,
      15_000,
      "the deleted user's devices to be removed",
    );
    expect(await delivery('dr.gone')).toMatchObject({ status: 'removed' });
    expect(listed.receivedBy(phone)).toEqual([]);
    expect(listed.receivedBy(laptop)).toEqual([]);
    expect((await admin.post('/push/send/dr.gone', { body: 'After' })).status).toBe(404);

    // The name is not given out again (api.md Accounts), so no new user can inherit the old devices.
    expect(await admin.post('/users', { username: 'DR.GONE', password, role: 'Doctor' })).toMatchObject({
      status: 409,
      body: { error: 'That username belonged to a deleted user. Choose another.' },
    });
    expect(await subscriptionsOf('dr.gone')).toEqual([]);
    expect(listed.receivedBy(phone)).toEqual([]);
  });
});
