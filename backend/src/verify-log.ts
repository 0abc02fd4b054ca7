/**
 * `npm run verify-log`: checks the event log against its hash chain (backend/src/audit).
 *
 * - Without flags: against the database the app uses (DATABASE_URL, or the embedded PostgreSQL in
 *   DATA_DIR), the events' chain and the access log's; prints the answer of `GET /api/audit/verify`
 *   as JSON. Read-only: it seals nothing, so events newer than the last seal are not counted.
 * - `--file export.jsonl --checkpoints checkpoints.json --public-key key.pem`: offline, with no
 *   database, an export of `GET /api/events/export` against the signed checkpoints and the key.
 *
 * Exits 0 when intact, 1 when broken (naming where on stderr), 2 when it could not check.
 */
import 'reflect-metadata';
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { verifyAccessLog } from './access-log/access-log.chain.js';
import type { Checkpoint } from './audit/audit-chain.js';
import { verifyLog } from './audit/audit-verifier.js';
import { verifyExport } from './audit/offline-verifier.js';
import { loadDatabaseSettings } from './config/config.js';
import { resolveDatabaseUrl } from './database/embedded-postgres.js';
import { grantAppRole } from './database/app-role.js';
import { runMigrations } from './database/migrations.js';

// Progress and verdicts go to stderr: stdout is the JSON answer alone.
const log = (message: string) => console.error(message);

async function main(): Promise<boolean> {
  const { values } = parseArgs({
    options: {
      file: { type: 'string' },
      checkpoints: { type: 'string' },
      'public-key': { type: 'string' },
    },
  });
  if (values.file || values.checkpoints || values['public-key']) {
    if (!values.file || !values.checkpoints || !values['public-key'])
      throw new Error('Offline verification needs --file, --checkpoints and --public-key together.');
    return verifyOffline(values.file, values.checkpoints, values['public-key']);
  }
  return verifyDatabase();
}

async function verifyOffline(file: string, checkpointsFile: string, keyFile: string): Promise<boolean> {
  const checkpoints = JSON.parse(readFileSync(checkpointsFile, 'utf8')) as Checkpoint[];
  if (!Array.isArray(checkpoints))
    throw new Error(`${checkpointsFile} must hold the JSON array of GET /audit/checkpoints`);
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  const result = await verifyExport(lines, checkpoints, readFileSync(keyFile, 'utf8'));
  for (const position of result.badCheckpoints)
    log(`Checkpoint at position ${position}: its signature does not hold.`);
  if (result.firstBroken !== null) log(`Broken at position ${result.firstBroken}: ${result.reason}`);
  if (result.ok)
    log(
      `Intact: ${result.events} sealed events, through ${result.checkpointsMatched} signed checkpoint(s)` +
        (result.unsealed ? `; ${result.unsealed} newer event(s) not sealed yet.` : '.'),
    );
  console.log(JSON.stringify(result));
  return result.ok;
}

async function verifyDatabase(): Promise<boolean> {
  const settings = loadDatabaseSettings();
  const database = await resolveDatabaseUrl(settings, log);
  let dataSource: DataSource | undefined;
  try {
    await runMigrations(database.ownerUrl, log, settings.migrationsDir);
    await grantAppRole(database.ownerUrl, database.url, log);
    dataSource = await new DataSource({ type: 'postgres', url: database.url, poolSize: 3 }).initialize();
    const started = performance.now();
    const result = await verifyLog(dataSource);
    const ms = performance.now() - started;
    log(
      `Checked ${result.events} sealed events in ${Math.round(ms)} ms (${Math.round((result.events * 1000) / ms)} events/s).`,
    );
    const accessLog = await verifyAccessLog(dataSource);
    if (!result.ok) log(`Broken at position ${result.firstBroken}.`);
    if (!accessLog.ok) log(`The access log is broken at entry ${accessLog.firstBroken}.`);
    console.log(JSON.stringify({ ...result, accessLog }));
    return result.ok && accessLog.ok;
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
