/**
 * `node backend/dist/migrate.js`: applies pending migrations to the app's database (DATABASE_URL,
 * or the embedded PostgreSQL in DATA_DIR, exactly as the app resolves it) and exits.
 */
import { loadDatabaseSettings } from './config/config.js';
import { resolveDatabaseUrl } from './database/embedded-postgres.js';
import { grantAppRole } from './database/app-role.js';
import { runMigrations } from './database/migrations.js';
import { encryptStoredEvents } from './event-store/encryption/encrypt-stored-events.js';

async function main(): Promise<void> {
  const log = (msg: string) => console.log(msg);
  const settings = loadDatabaseSettings();
  const database = await resolveDatabaseUrl(settings, log);
  try {
    const applied = await runMigrations(database.ownerUrl, log, settings.migrationsDir);
    await encryptStoredEvents(database.ownerUrl, settings.masterKeyFile, log);
    await grantAppRole(database.ownerUrl, database.url, log);
    console.log(applied.length === 0 ? 'Database is up to date.' : `Applied ${applied.length} migration(s).`);
  } finally {
    await database.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`Migration failed: ${err instanceof Error ? err.message : String(err)}`);
    // Explicit exit: a deploy step must not hang on a connection left open by a failure.
    process.exit(1);
  },
);
