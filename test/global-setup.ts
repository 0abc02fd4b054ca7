import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
// No `.js` on these imports (unlike the rest of the code): jest loads global setup/teardown with
// Node's own resolver, which jest's moduleNameMapper does not reach.
import { resolveDatabaseUrl } from '../backend/src/database/embedded-postgres';
import { adminUrl, isLeftoverTestDatabase, withAdminClient, withDatabase } from './support/database';

/** Handed to global-teardown, which runs in this same process. */
export interface EmbeddedTestServer {
  stop: () => Promise<void>;
  dataDir: string;
}
export const EMBEDDED_SERVER_KEY = '__alignerflowEmbeddedTestPostgres';

const START_HINT =
  'Start PostgreSQL with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`, ' +
  'or set TEST_DATABASE_URL to an admin URL of a reachable server.';

export default async function globalSetup(): Promise<void> {
  const explicit = process.env.TEST_DATABASE_URL !== undefined;
  try {
    await withAdminClient((client) => client.query('SELECT 1'));
  } catch (err) {
    const reason = `PostgreSQL is not reachable at ${redact(adminUrl())}: ${(err as Error).message}`;
    if (explicit) throw new Error(`${reason}\n${START_HINT}`, { cause: err });
    console.warn(`${reason}; starting an embedded PostgreSQL for the tests instead.\n${START_HINT}`);
    await startEmbeddedServer(reason);
    return; // a brand-new cluster has no leftovers
  }
  // A server named explicitly may hold databases that are not ours to sweep, unless on CI.
  if (!explicit || process.env.CI) await dropLeftoverDatabases();
}

async function startEmbeddedServer(reason: string): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'af-test-pg-'));
  // mkdtemp makes it 0700; as root, PostgreSQL runs as user "postgres" and must be able to enter it.
  await chmod(dataDir, 0o755);
  try {
    const { ownerUrl: url, stop } = await resolveDatabaseUrl({ databaseUrl: undefined, dataDir });
    // Workers are forked after global setup and inherit this.
    process.env.TEST_DATABASE_URL = withDatabase(url, 'postgres');
    (globalThis as Record<string, unknown>)[EMBEDDED_SERVER_KEY] = {
      stop,
      dataDir,
    } satisfies EmbeddedTestServer;
  } catch (err) {
    throw new Error(`${reason}\nThe embedded fallback failed too: ${(err as Error).message}\n${START_HINT}`, {
      cause: err,
    });
  }
}

/**
 * Databases of earlier runs that crashed before their drop(). Ones still in use (another run
 * going on at the same time) are left alone: plain DROP DATABASE refuses them. So are young ones
 * (support/database.ts, LEFTOVER_AGE_MS): another run's database has moments with no session.
 */
async function dropLeftoverDatabases(): Promise<void> {
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database d
        WHERE datname LIKE 'af\\_test\\_%'
          AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datid = d.oid)`,
    );
    for (const { datname } of rows) {
      if (!isLeftoverTestDatabase(datname, Date.now())) continue;
      await client.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => undefined);
    }
  });
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
