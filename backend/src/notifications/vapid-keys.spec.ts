import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import { loadConfig } from '../config/config';
import { loadNotificationsConfig } from '../config/notifications.config';
import { loadOrCreateKeyFile, VapidKeys } from './vapid-keys';

describe('VAPID keys', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'af-vapid-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const keysFor = (env: NodeJS.ProcessEnv) =>
    new VapidKeys(loadNotificationsConfig(loadConfig({ DATA_DIR: join(dir, 'data') }), env));

  it('are generated once into DATA_DIR, only when first needed, and read back by every process', async () => {
    const first = keysFor({});
    expect(() => statSync(join(dir, 'data', 'vapid.json'))).toThrow(); // nothing written yet
    const keys = await first.get();
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
    expect(keys.subject).toBe('mailto:admin@example.com');
    const file = join(dir, 'data', 'vapid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ publicKey: keys.publicKey });
    // Another process (another instance) reads the same pair.
    expect(await keysFor({}).get()).toEqual(keys);
  });

  it('agree when many start at once: the first file written wins', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => loadOrCreateKeyFile(join(dir, 'data'))),
    );
    expect(new Set(results.map((keys) => keys.publicKey)).size).toBe(1);
  });

  it('come from the environment when set there, and then touch no file', async () => {
    const pair = webpush.generateVAPIDKeys();
    const keys = await keysFor({
      VAPID_PUBLIC_KEY: pair.publicKey,
      VAPID_PRIVATE_KEY: pair.privateKey,
      VAPID_SUBJECT: 'mailto:lab@example.org',
    }).get();
    expect(keys).toEqual({ ...pair, subject: 'mailto:lab@example.org' });
    expect(() => statSync(join(dir, 'data'))).toThrow();
  });
});
