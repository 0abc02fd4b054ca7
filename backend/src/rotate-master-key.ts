/**
 * `npm run rotate-master-key -- --new-key-file <path>`: wraps every case's key under a new master
 * key, in one transaction, on the app's database (DATABASE_URL, or the embedded PostgreSQL in
 * DATA_DIR) with the current key of MASTER_KEY_FILE (else DATA_DIR/master.key). The new file is
 * created (32 random bytes, mode 0600) when missing. Run it with the app stopped, then start the
 * app with MASTER_KEY_FILE naming the new file (patient-data/README.md, "Rotating the master key").
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { loadDatabaseSettings } from './config/config.js';
import { resolveDatabaseUrl } from './database/embedded-postgres.js';
import { runMigrations } from './database/migrations.js';
import { withTransaction } from './event-store/transactions.js';
import { CaseKeys } from './event-store/encryption/case-keys.js';
import { encryptStoredEvents } from './event-store/encryption/encrypt-stored-events.js';
import { loadMasterKey } from './event-store/encryption/master-key.js';

async function main(): Promise<void> {
  const log = (message: string) => console.log(message);
  const at = process.argv.indexOf('--new-key-file');
  const newFile = at > 0 ? process.argv[at + 1] : undefined;
  if (!newFile) throw new Error('usage: npm run rotate-master-key -- --new-key-file <path>');
  const settings = loadDatabaseSettings();
  if (resolve(newFile) === settings.masterKeyFile) throw new Error('the new key file is the current one');
  const database = await resolveDatabaseUrl(settings, log);
  let dataSource: DataSource | undefined;
  try {
    await runMigrations(database.url, log, settings.migrationsDir);
    await encryptStoredEvents(database.url, settings.masterKeyFile, log);
    const current = loadMasterKey(settings.masterKeyFile);
    const next = loadMasterKey(resolve(newFile));
    dataSource = await new DataSource({ type: 'postgres', url: database.url, poolSize: 2 }).initialize();
    const keys = new CaseKeys(dataSource, current);
    const rewrapped = await withTransaction(dataSource, async (runner) => {
      // No key is made under the old master key while this runs.
      await runner.query('LOCK TABLE case_keys IN EXCLUSIVE MODE');
      return keys.rewrapAll(next, runner);
    });
    log(`Wrapped ${rewrapped} case keys under master key ${next.id} (was ${current.id}).`);
    log(
      `Start the app with MASTER_KEY_FILE=${resolve(newFile)}; keep the old file until a backup of the database has been taken.`,
    );
  } finally {
    await dataSource?.destroy();
    await database.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`Rotation failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
