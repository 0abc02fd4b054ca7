import type { INestApplication } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../backend/src/app';
import { loadConfig } from '../../backend/src/config/config';
import { createTestDatabase } from './database';
import { ApiClient } from './http';

export interface TestApp {
  app: INestApplication;
  baseUrl: string;
  apiUrl: string;
  databaseUrl: string;
  dataDir: string;
  anonymous: ApiClient;
  login(username: string, password?: string): Promise<ApiClient>;
  close(): Promise<void>;
}

/** The built app (frontend/dist), served by the API process as in production. */
export const BUILT_SPA = join(__dirname, '..', '..', 'frontend', 'dist');

/**
 * How long a file's hook waits for `startTestApp` (and its sign-ins) before calling the start hung.
 * Starting migrates a fresh database, seeds it and hashes passwords: all CPU, so a busy machine
 * starts late, and one test's bound is too tight for it.
 */
export const APP_START_TIMEOUT_MS = 180_000;

/** The real application on a fresh, migrated PostgreSQL database, seeded in demo mode. */
export async function startTestApp(
  /** A variable given as undefined is left unset (its default applies). */
  env: Record<string, string | undefined> = {},
  options: { spaDir?: string } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'af-test-'));
  const config = loadConfig({
    // Tests tune the live stream and the notifications through process.env (withEnv).
    ...Object.fromEntries(
      Object.entries(process.env).filter(([name]) => /^(LIVE_|NOTIFICATIONS_|PUSH_|VAPID_|FCM_)/.test(name)),
    ),
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    DEMO_DATA: '1',
    ADMIN_PASSWORD: 'demo',
    PORT: '0',
    // Tests sign in as admin without a second factor unless one asks otherwise.
    MFA_REQUIRED_ROLES: '',
    ...env,
  });
  const app = await createApp({
    config,
    databaseUrl: database.url,
    logger: false,
    spaDir: options.spaDir ?? '/nonexistent',
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}${config.basePath}`;
  const apiUrl = `${baseUrl}api`;
  const anonymous = new ApiClient(apiUrl);
  return {
    app,
    baseUrl,
    apiUrl,
    databaseUrl: database.url,
    dataDir,
    anonymous,
    async login(username, password = 'demo') {
      const answer = await anonymous.post('/auth/login', { username, password });
      if (answer.status !== 200)
        throw new Error(`login ${username}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return new ApiClient(apiUrl, answer.body.token, answer.body.user);
    },
    async close() {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
