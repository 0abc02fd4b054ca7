import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';

/**
 * Arbitrary but fixed: every instance of the app must contend for the same advisory lock, so
 * that only one of several processes starting together applies the migrations.
 */
const MIGRATION_LOCK_ID = '7240913350164081001';

/**
 * Applies the pending `migrations/*.sql` files in name order and returns their names.
 *
 * Each file runs in its own transaction, so a failing file leaves no half-applied schema and the
 * files before it stay applied. Consequently a file must not contain statements that refuse to
 * run inside a transaction (CREATE INDEX CONCURRENTLY, ALTER TYPE ... ADD VALUE before PG 12).
 * Applied files are never re-run: change the schema with a new file, never by editing an old one.
 */
export async function runMigrations(
  databaseUrl: string,
  log: (msg: string) => void = () => {},
  configuredDir?: string,
): Promise<string[]> {
  const dir = migrationsDir(configuredDir);
  const files = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();

  const client = new Client({ connectionString: databaseUrl });
  // Without a listener, a connection dropped by the server would crash the process.
  client.on('error', (err) => log(`migration connection error: ${err.message}`));
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    // Created under the lock: concurrent CREATE TABLE IF NOT EXISTS can still collide.
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz DEFAULT now())',
    );
    const done = await client.query<{ name: string }>('SELECT name FROM schema_migrations');
    const applied = new Set(done.rows.map((row) => row.name));

    const newlyApplied: string[] = [];
    for (const name of files.filter((file) => !applied.has(file))) {
      const sql = await readFile(path.join(dir, name), 'utf8');
      try {
        await client.query('BEGIN');
        // No parameters: pg then uses the simple protocol, which accepts many statements at once.
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`Migration ${name} failed: ${(err as Error).message}`, { cause: err });
      }
      log(`applied migration ${name}`);
      newlyApplied.push(name);
    }
    return newlyApplied;
  } finally {
    // Ending the session releases the advisory lock as well.
    await client.end().catch(() => undefined);
  }
}

/** `MIGRATIONS_DIR`, or the `migrations/` folder of the repository this code runs from. */
export function migrationsDir(configured?: string): string {
  if (configured) return configured;
  // Walking up works the same from backend/src (tests) and backend/dist (built app).
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'migrations')) && isRepoRoot(dir)) return path.join(dir, 'migrations');
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`No migrations/ folder found above ${__dirname}; set MIGRATIONS_DIR.`);
}

function isRepoRoot(dir: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string };
    return pkg.name === 'alignerflow';
  } catch {
    return false;
  }
}
