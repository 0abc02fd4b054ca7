import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
// No `.js`: global-setup loads this file too, see there.
import { runMigrations } from '../../backend/src/database/migrations';

/** The server tests create their databases on; global-setup may point it at an embedded one. */
export function adminUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** Same server and credentials as `url`, another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const TEST_DATABASE_PREFIX = 'af_test_';
/**
 * Leftovers younger than this are spared by the sweep: between its creation, its migration and
 * the app's first connection a live run's database has moments with nobody connected, and a
 * test run started beside it (another checkout, a CI run) must not drop it then.
 */
export const LEFTOVER_AGE_MS = 6 * 60 * 60 * 1000;

/** `af_test_{creation time, base 36 seconds}_{random}`: the sweep reads the age from the name. */
export function testDatabaseName(createdAtMs: number): string {
  return `${TEST_DATABASE_PREFIX}${Math.floor(createdAtMs / 1000).toString(36)}_${randomBytes(6).toString('hex')}`;
}

/** Whether a database of the tests is a leftover to sweep: old enough, or named before names told their age. */
export function isLeftoverTestDatabase(name: string, nowMs: number): boolean {
  const match = /^af_test_([0-9a-z]+)_[0-9a-f]+$/.exec(name);
  if (!match) return name.startsWith(TEST_DATABASE_PREFIX);
  return nowMs - parseInt(match[1], 36) * 1000 > LEFTOVER_AGE_MS;
}

/**
 * A fresh, migrated database of its own, so test files can run in parallel without sharing
 * state. Call `drop()` in afterAll; global-setup sweeps up what crashed runs leave behind.
 */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = testDatabaseName(Date.now());
  await withAdminClient((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = withDatabase(adminUrl(), name);
  try {
    await runMigrations(url, undefined, process.env.MIGRATIONS_DIR);
  } catch (err) {
    await dropDatabase(name);
    throw err;
  }
  return { url, drop: () => dropDatabase(name) };
}

function dropDatabase(name: string): Promise<void> {
  // FORCE terminates the sessions a failed test may have left open.
  return withAdminClient(async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

export async function withAdminClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * An open session that marks a database as in use while processes of a test come and go: other
 * test runs sweep af_test_ databases nobody is connected to. `end()` it before dropping.
 */
export async function keepInUse(url: string): Promise<Client> {
  const keeper = new Client({ connectionString: url });
  keeper.on('error', () => undefined);
  await keeper.connect();
  return keeper;
}
