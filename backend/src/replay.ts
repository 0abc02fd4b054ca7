/**
 * `npm run replay`: rebuilds every read model (case_view, case_notes, user_view, case_ids, and the
 * reports' report_cases and report_stage_intervals) from the event log
 * into fresh tables and swaps them in, while an API on the same database keeps serving. Uses the
 * database the app uses (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR). A run that is
 * stopped or crashes resumes where it stopped when started again.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadDatabaseSettings } from './config/config.js';
import { resolveDatabaseUrl } from './database/embedded-postgres.js';
import { grantAppRole } from './database/app-role.js';
import { runMigrations } from './database/migrations.js';
import { createEventStore } from './event-store/event-store.module.js';
import { CaseKeys } from './event-store/encryption/case-keys.js';
import { encryptStoredEvents } from './event-store/encryption/encrypt-stored-events.js';
import { loadMasterKey } from './event-store/encryption/master-key.js';
import { describe } from './rebuild/projection-rebuild.service.js';
import { ProjectionRebuilder } from './rebuild/projection-rebuilder.js';

const LOG_EVERY_MS = 1000;

async function main(): Promise<void> {
  const log = (message: string) => console.log(message);
  const settings = loadDatabaseSettings();
  const database = await resolveDatabaseUrl(settings, log);
  let dataSource: DataSource | undefined;
  try {
    await runMigrations(database.ownerUrl, log, settings.migrationsDir);
    await encryptStoredEvents(database.ownerUrl, settings.masterKeyFile, log);
    await grantAppRole(database.ownerUrl, database.url, log);
    dataSource = await new DataSource({ type: 'postgres', url: database.url, poolSize: 5 }).initialize();
    let lastLog = 0;
    const keys = new CaseKeys(dataSource, loadMasterKey(settings.masterKeyFile));
    const result = await new ProjectionRebuilder(dataSource, createEventStore(dataSource, keys)).run({
      onProgress: (progress) => {
        if (progress.resumedFrom && !lastLog)
          log(`Resuming an interrupted rebuild after ${progress.resumedFrom} events.`);
        if (progress.state === 'running' && Date.now() - lastLog >= LOG_EVERY_MS) {
          lastLog = Date.now();
          log(`replay: ${describe(progress)}`);
        }
      },
    });
    log(`Read models rebuilt: ${describe(result)}; the swap took ${result.swapMs} ms.`);
    log(`The replay sat idle, waiting for PostgreSQL, ${result.idleMs} ms in all.`);
  } finally {
    await dataSource?.destroy();
    await database.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`Replay failed: ${err instanceof Error ? err.message : String(err)}`);
    // Explicit exit: a failed run must not hang on a connection left open.
    process.exit(1);
  },
);
