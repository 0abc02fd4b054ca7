import { createServer, type AddressInfo } from 'node:net';
import { sql } from '../../../test/support/helpers';
import { startTestApp, type TestApp } from '../../../test/support/test-app';
import { ProcessLifecycle } from './process-lifecycle';

/** A port where nothing answers: a Redis that is down. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('health probes', () => {
  let lab: TestApp | undefined;
  afterEach(async () => {
    await lab?.close();
    lab = undefined;
  });

  it('is live and not ready while a configured Redis is down; GET /health keeps its shape', async () => {
    lab = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${await deadPort()}` });
    expect(await lab.anonymous.get('/health/live')).toMatchObject({
      status: 200,
      body: { status: 'alive', draining: false },
    });
    expect(await lab.anonymous.get('/health/ready')).toMatchObject({
      status: 503,
      body: {
        status: 'not ready',
        reason: 'redis unreachable',
        db: 'up',
        redis: 'down',
        migrations: 'applied',
      },
    });
    expect(await lab.anonymous.get('/health')).toMatchObject({
      status: 200,
      body: { status: 'ok', db: 'up', redis: 'down' },
    });
  });

  it('is not ready while a migration this code ships is missing from the database', async () => {
    lab = await startTestApp();
    const [last] = await sql<{ name: string }>(
      lab.databaseUrl,
      'SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1',
    );
    await sql(lab.databaseUrl, 'DELETE FROM schema_migrations WHERE name = $1', [last.name]);
    expect(await lab.anonymous.get('/health/ready')).toMatchObject({
      status: 503,
      body: { reason: 'migrations not applied', migrations: 'pending' },
    });
    await sql(lab.databaseUrl, 'INSERT INTO schema_migrations (name) VALUES ($1)', [last.name]);
    expect(await lab.anonymous.get('/health/ready')).toMatchObject({
      status: 200,
      body: { status: 'ready', draining: false, db: 'up', redis: 'disabled', migrations: 'applied' },
    });
  });

  it('answers 503 "draining" from the start of a drain, stays live, and closes connections after each answer', async () => {
    lab = await startTestApp();
    lab.app.get(ProcessLifecycle).beginDrain();
    const ready = await lab.anonymous.get('/health/ready');
    expect(ready).toMatchObject({
      status: 503,
      body: { status: 'not ready', reason: 'draining', draining: true },
    });
    expect(ready.headers.get('connection')).toBe('close');
    expect(await lab.anonymous.get('/health/live')).toMatchObject({
      status: 200,
      body: { status: 'alive', draining: true },
    });
  });
});
