import { randomBytes } from 'node:crypto';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process';
import { freePort } from './support/app-process';
import { createTestDatabase } from './support/database';
import { FcmStub } from './support/fcm-stub';
import { clearQueuePrefix, eventually, withEnv } from './support/helpers';
import { SseStream } from './support/sse';
import { startTestApp, type TestApp } from './support/test-app';

/** api.md "Operations": GET /metrics. */
const TOKEN = 'metrics-token-for-the-tests';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The value of one series in Prometheus text, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[4]);
  }
  return undefined;
}

describe('GET /api/metrics', () => {
  let lab: TestApp;
  let unconfigured: TestApp;
  let fcm: FcmStub;

  beforeAll(async () => {
    fcm = await FcmStub.start();
    [lab, unconfigured] = await Promise.all([
      // The notification settings are read from the environment.
      withEnv(fcm.env(), () => startTestApp({ METRICS_TOKEN: TOKEN })),
      startTestApp(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([lab?.close(), unconfigured?.close()]);
    await fcm?.close();
  });

  const scrape = async (app: TestApp = lab, token = TOKEN) => {
    const answer = await fetch(`${app.apiUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() };
  };

  it('answers 404 when METRICS_TOKEN is not set, whatever the caller sends', async () => {
    expect((await scrape(unconfigured)).status).toBe(404);
    expect((await scrape(unconfigured, 'anything-at-all-here')).status).toBe(404);
    const manager = await unconfigured.login('admin');
    expect((await manager.get('/metrics')).status).toBe(404);
  });

  it('answers 401 without the token or with a wrong one, a signed-in session included', async () => {
    expect((await lab.anonymous.get('/metrics')).status).toBe(401);
    expect(await scrape(lab, `${TOKEN}x`)).toMatchObject({ status: 401 });
    expect(await scrape(lab, TOKEN.slice(0, -1))).toMatchObject({ status: 401 });
    const manager = await lab.login('admin');
    expect(await manager.get('/metrics')).toMatchObject({
      status: 401,
      body: { error: 'A valid metrics token is required.' },
    });
  });

  it('counts real commands by type and outcome, requests by route pattern, sign-in failures and throttles', async () => {
    const manager = await lab.login('admin');
    const created = await manager.post('/cases', {
      patientName: 'Metrics Patient',
      doctorName: 'Dr. Lee',
      clinicName: 'Smile',
      priority: 'Normal',
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const before = (await scrape()).text;
    const appendsBefore = sample(before, 'alignerflow_append_batch_size_sum') ?? 0;
    const waitsBefore = sample(before, 'alignerflow_append_wait_seconds_count') ?? 0;
    const flushesBefore = sample(before, 'alignerflow_append_flush_seconds_count') ?? 0;
    expect((await manager.post(`/cases/${id}/notes`, { text: 'one' })).status).toBe(201);
    expect((await manager.post(`/cases/${id}/notes`, { text: 'two' })).status).toBe(201);
    // Pending Approval cannot advance: a workflow rule, 409.
    expect((await manager.post(`/cases/${id}/advance`, {})).status).toBe(409);
    // A Doctor may not approve: 403.
    const doctor = await lab.login('dr.lee');
    expect((await doctor.post(`/cases/${id}/approve`, { doctorUsername: 'dr.lee' })).status).toBe(404);
    expect((await manager.get(`/cases/${id}`)).status).toBe(200);
    for (let attempt = 0; attempt < 6; attempt++)
      await lab.anonymous.post('/auth/login', { username: 'rep', password: `wrong-${attempt}` });

    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    expect(sample(text, 'alignerflow_commands_total', { type: 'CreateCase', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'alignerflow_commands_total', { type: 'AddNote', outcome: 'ok' })).toBe(2);
    expect(sample(text, 'alignerflow_commands_total', { type: 'AdvanceStage', outcome: 'conflict' })).toBe(1);
    expect(sample(text, 'alignerflow_commands_total', { type: 'ApproveCase', outcome: 'rejected' })).toBe(1);
    // Reads send no command.
    expect(text).not.toMatch(/alignerflow_commands_total\{type="(Get|List)/);
    // Each note went out in a flush of the group commit.
    expect(sample(text, 'alignerflow_append_batch_size_sum')! - appendsBefore).toBe(2);
    // One after another: two flushes, each timed, and each note's wait for its flush.
    expect(sample(text, 'alignerflow_append_flush_seconds_count')! - flushesBefore).toBe(2);
    expect(sample(text, 'alignerflow_append_wait_seconds_count')! - waitsBefore).toBe(2);
    expect(sample(text, 'alignerflow_login_failures_total')).toBe(5);
    expect(sample(text, 'alignerflow_login_throttles_total')).toBe(1);
    // The route pattern, never the raw URL.
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/cases/:id',
        status: '200',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/cases/:id/notes',
        status: '201',
      }),
    ).toBe(2);
    expect(text).not.toContain(id);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('shows open live streams, the lag of the log consumers, notification outcomes and queue depth', async () => {
    const manager = await lab.login('admin');
    const stream = await SseStream.open(`${lab.apiUrl}/events`, { token: manager.token });
    try {
      expect(sample((await scrape()).text, 'alignerflow_sse_clients')).toBe(1);
      // One device of the manager's, on FCM (a stub of Google's service): one job, counted by channel.
      expect((await manager.put('/push/fcm-token', { token: 'device-token-of-the-manager' })).status).toBe(
        204,
      );
      expect((await manager.post('/push/test', { title: 'Hi', body: 'Metrics' })).body).toEqual({
        queued: 1,
      });
      await eventually(
        async () =>
          (sample((await scrape()).text, 'alignerflow_notifications_total', {
            channel: 'fcm',
            outcome: 'delivered',
          }) ?? 0) >= 1,
        10_000,
        'the notification outcome',
      );
      await eventually(
        async () =>
          sample((await scrape()).text, 'alignerflow_projection_lag_events', { projection: 'live' }) === 0,
        10_000,
        'the live tailer at the head',
      );
      const text = (await scrape()).text;
      for (const projection of ['notifications', 'audit'])
        expect(sample(text, 'alignerflow_projection_lag_events', { projection })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'alignerflow_notification_queue_depth')).toBeGreaterThanOrEqual(0);
    } finally {
      stream.close();
    }
    await eventually(
      async () => sample((await scrape()).text, 'alignerflow_sse_clients') === 0,
      10_000,
      'the stream gone',
    );
  });
});

describe('a worker process serves its metrics on METRICS_PORT', () => {
  let worker: WorkerProcess | undefined;
  let database: { url: string; drop: () => Promise<void> };
  const prefix = `af-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await worker?.stop();
    await clearQueuePrefix(REDIS_URL, prefix);
    await database?.drop();
  });

  it('with the same token rule as the API', async () => {
    const port = await freePort();
    worker = await startWorkerProcess({
      DATABASE_URL: database.url,
      REDIS_URL,
      NOTIFICATIONS_QUEUE_PREFIX: prefix,
      METRICS_PORT: String(port),
      METRICS_TOKEN: TOKEN,
    });
    expect(worker.output()).toContain(`metrics on port ${port}`);
    const get = (token?: string) =>
      fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    expect((await get()).status).toBe(401);
    expect((await get('wrong-token-of-some-length')).status).toBe(401);
    const answer = await get(TOKEN);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).toContain('# TYPE alignerflow_notifications_total counter');
    expect(sample(text, 'alignerflow_notification_queue_depth')).toBe(0);
    expect(sample(text, 'alignerflow_projection_lag_events', { projection: 'notifications' })).toBe(0);
    // A worker has no live streams.
    expect(sample(text, 'alignerflow_projection_lag_events', { projection: 'live' })).toBeUndefined();
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});
