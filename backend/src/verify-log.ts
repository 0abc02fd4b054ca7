/**
 * `npm run verify-log`: checks the event log against its hash chain (backend/src/audit) and prints
 * the answer of `GET /api/audit/verify` as JSON; exits 1 when the log is broken. Uses the database
 * the app uses (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR). Read-only: it seals nothing,
 * so events newer than the last seal are not counted.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { verifyLog } from './audit/audit-verifier.js';
import { loadDatabaseSettings } from './config/config.js';
import { resolveDatabaseUrl } from './database/embedded-postgres.js';
import { runMigrations } from './database/migrations.js';

async function main(): Promise<boolean> {
  // Progress goes to stderr: stdout is the JSON answer alone.
  const log = (message: string) => console.error(message);
  const settings = loadDatabaseSettings();
  const database = await resolveDatabaseUrl(settings, log);
  let dataSource: DataSource | undefined;
  try {
    await runMigrations(database.url, log, settings.migrationsDir);
    dataSource = await new DataSource({ type: 'postgres', url: database.url, poolSize: 3 }).initialize();
    const started = performance.now();
    const result = await verifyLog(dataSource);
    const ms = performance.now() - started;
    log(
      `Checked ${result.events} sealed events in ${Math.round(ms)} ms (${Math.round((result.events * 1000) / ms)} events/s).`,
    );
    console.log(JSON.stringify(result));
    return result.ok;
  } finally {
    await dataSource?.destroy();
    await database.stop();
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err: unknown) => {
    console.error(`Verification failed: ${err instanceof Error ? err.message : String(err)}`);
    // Explicit exit: a failed run must not hang on a connection left open. 2: not a verdict.
    process.exit(2);
  },
);
