import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { loadAccountsConfig, type AccountsConfig } from './accounts.config.js';
import { newPasswordProblem } from '../common/password-policy.js';
import { liveOptionsFromEnv, type LiveOptions } from './live-options.js';
import { loadNotificationsConfig, type NotificationsConfig } from './notifications.config.js';
import {
  fail,
  flag,
  integerInRange,
  milliseconds,
  wholeNumber,
  checkedUrl,
  type Fail,
  type ProcessRole,
} from './env-values.js';

export { ConfigError } from './env-values.js';

/** Outside demo mode the admin password must be at least this long (ADMIN_PASSWORD). */
export const ADMIN_PASSWORD_MIN_LENGTH = 12;
/** Names Fastify's `trustProxy` (proxy-addr) understands besides addresses and CIDR ranges. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
/** pino's levels (LOG_LEVEL). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface AppConfig extends DatabaseSettings {
  port: number;
  /** The address the HTTP API listens on (HOST). */
  host: string;
  basePath: string;
  databaseUrl: string | undefined;
  /** Connections in this process's database pool (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  redisUrl: string | undefined;
  dataDir: string;
  /** The master key's file (MASTER_KEY_FILE, else DATA_DIR/master.key; patient-data/README.md). */
  masterKeyFile: string;
  adminPassword: string;
  demoData: boolean;
  processRole: ProcessRole;
  /** Whether cookies must be Secure even when a request does not look like TLS (SECURE_COOKIES=1). */
  secureCookies: boolean;
  /**
   * Fastify's `trustProxy` (TRUST_PROXY): the proxies whose X-Forwarded-For and X-Forwarded-Proto
   * are believed, as addresses, CIDR ranges or loopback/linklocal/uniquelocal; false trusts none.
   */
  trustProxy: string[] | false;
  /** A session without Remember Me ends after this long unused (SESSION_IDLE_MINUTES). */
  sessionIdleMinutes: number;
  ai: { apiKey: string | undefined; model: string; endpoint: string };
  metrics: {
    /** GET /api/metrics answers only with this bearer token (METRICS_TOKEN); unset → 404. */
    token: string | undefined;
    /** Where a worker process serves GET /metrics (METRICS_PORT); unset → nowhere. */
    port: number | undefined;
  };
  shutdown: {
    /** After SIGTERM, how long the listener stays open answering readiness 503 (SHUTDOWN_DELAY_MS). */
    delayMs: number;
    /** The bound on the whole shutdown; past it the process exits anyway (SHUTDOWN_TIMEOUT_MS). */
    timeoutMs: number;
  };
  /** pino level of the process's logs (LOG_LEVEL). */
  logLevel: string;
  /** Web push, FCM, the queue and its workers (notifications/notifications.config.ts). */
  notifications: NotificationsConfig;
  /** Tuning of the live stream (live/live-options.ts). */
  live: LiveOptions;
  /** Second factors and passkeys (auth/accounts.config.ts). */
  accounts: AccountsConfig;
}

/** The settings a tool that only needs the database reads (migrate, replay, verify-log, tests). */
export interface DatabaseSettings {
  databaseUrl: string | undefined;
  dataDir: string;
  /** MIGRATIONS_DIR: the SQL migrations, when not the repository's migrations/ folder. */
  migrationsDir: string | undefined;
  /**
   * DATABASE_OWNER_URL: the role that owns the schema. Migrations and start-up steps run as it,
   * and the app connects with DATABASE_URL as a role that cannot rewrite events (README.md).
   */
  databaseOwnerUrl: string | undefined;
  /** AUDIT_SIGNING_KEY: the Ed25519 private key (PEM file) seals are signed with; else DATA_DIR's. */
  auditSigningKey: string | undefined;
  /** MASTER_KEY_FILE, else DATA_DIR/master.key: the key that wraps the cases' data keys. */
  masterKeyFile: string;
}

/**
 * The one place the environment is read (lint forbids process.env elsewhere): once, at start, and
 * a wrong value stops the boot naming its variable. Each capability's own settings are read by
 * its reader (notifications.config.ts, live-options.ts) from the env handed to it here.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail('PORT', `must be a port number, got "${env.PORT}"`);

  let basePath = env.BASE_PATH?.trim() || '/';
  if (!basePath.startsWith('/')) basePath = `/${basePath}`;
  if (!basePath.endsWith('/')) basePath = `${basePath}/`;
  if (!/^\/([A-Za-z0-9._~-]+\/)*$/.test(basePath))
    fail('BASE_PATH', `must be a URL path such as /portal/, got "${env.BASE_PATH}"`);

  const { databaseUrl, dataDir, migrationsDir, databaseOwnerUrl, auditSigningKey, masterKeyFile } =
    loadDatabaseSettings(env);
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) fail('REDIS_URL', 'must be a redis:// URL');

  const demoFlag = env.DEMO_DATA?.trim();
  if (demoFlag && demoFlag !== '0' && demoFlag !== '1')
    fail('DEMO_DATA', `must be 0 or 1, got "${demoFlag}"`);
  const demoData = demoFlag ? demoFlag === '1' : !databaseUrl;
  // Demo users sign in with the password "demo": never on a production deployment.
  if (demoData && env.NODE_ENV?.trim() === 'production')
    fail(
      'DEMO_DATA',
      demoFlag
        ? 'must not be 1 when NODE_ENV=production (demo users have the password "demo")'
        : 'must be 0 when NODE_ENV=production (demo mode is the default without DATABASE_URL; demo users have the password "demo")',
    );

  const processRole = (env.PROCESS_ROLE?.trim() || 'all') as ProcessRole;
  if (!['all', 'api', 'worker'].includes(processRole)) fail('PROCESS_ROLE', 'must be all, api or worker');

  // Outside demo mode there is never a Manager with an empty or guessable password. A worker
  // creates no users, so it needs none.
  const adminPassword = env.ADMIN_PASSWORD ?? (demoData ? 'demo' : '');
  if (!demoData && processRole !== 'worker') {
    if (!adminPassword) fail('ADMIN_PASSWORD', 'is required unless DEMO_DATA=1');
    if ([...adminPassword].length < ADMIN_PASSWORD_MIN_LENGTH)
      fail('ADMIN_PASSWORD', `must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters unless DEMO_DATA=1`);
    if (newPasswordProblem('admin', adminPassword))
      fail('ADMIN_PASSWORD', 'is too easy to guess (a common password, or it holds "admin"): choose another');
  }
  if (processRole !== 'all' && !redisUrl)
    fail('PROCESS_ROLE', `${processRole} needs REDIS_URL (separate processes share work through Redis)`);

  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel))
    fail('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);

  const app = {
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    basePath,
    databaseUrl,
    // A worker runs no HTTP requests, only the dispatcher and the jobs' writes.
    databasePoolSize: integerInRange(
      'DATABASE_POOL_SIZE',
      env.DATABASE_POOL_SIZE,
      processRole === 'worker' ? 10 : 20,
      1,
      1000,
      fail,
    ),
    redisUrl,
    dataDir,
    migrationsDir,
    databaseOwnerUrl,
    auditSigningKey,
    masterKeyFile,
    adminPassword,
    demoData,
    processRole,
    secureCookies: flag('SECURE_COOKIES', env.SECURE_COOKIES, fail),
    trustProxy: trustedProxies(env.TRUST_PROXY, fail),
    sessionIdleMinutes: wholeNumber('SESSION_IDLE_MINUTES', env.SESSION_IDLE_MINUTES, 30, 1, fail),
    ai: {
      apiKey: env.AI_API_KEY?.trim() || undefined,
      model: env.AI_MODEL?.trim() || 'gemini-2.5-flash',
      endpoint: checkedUrl('AI_ENDPOINT', env.AI_ENDPOINT, 'https://generativelanguage.googleapis.com', fail),
    },
    metrics: metricsSettings(env, fail),
    shutdown: {
      delayMs: milliseconds('SHUTDOWN_DELAY_MS', env.SHUTDOWN_DELAY_MS, 0, fail),
      timeoutMs: milliseconds('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000, fail),
    },
    logLevel,
  };
  return {
    ...app,
    notifications: loadNotificationsConfig(app, env),
    live: liveOptionsFromEnv(env),
    accounts: loadAccountsConfig(app, env, fail),
  };
}

/** DATABASE_URL and DATA_DIR alone, as the app reads them: for the tools that only migrate or read. */
export function loadDatabaseSettings(env: NodeJS.ProcessEnv = process.env): DatabaseSettings {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    fail('DATABASE_URL', 'must be a postgres:// URL');
  const migrationsDir = env.MIGRATIONS_DIR?.trim() ? resolve(env.MIGRATIONS_DIR.trim()) : undefined;
  const databaseOwnerUrl = env.DATABASE_OWNER_URL?.trim() || undefined;
  if (databaseOwnerUrl && !/^postgres(ql)?:\/\//.test(databaseOwnerUrl))
    fail('DATABASE_OWNER_URL', 'must be a postgres:// URL');
  if (databaseOwnerUrl && !databaseUrl)
    fail('DATABASE_OWNER_URL', 'needs DATABASE_URL (the embedded database sets up both roles itself)');
  const auditSigningKey = env.AUDIT_SIGNING_KEY?.trim() ? resolve(env.AUDIT_SIGNING_KEY.trim()) : undefined;
  const dataDir = resolve(env.DATA_DIR?.trim() || './data');
  const masterKeyFile = env.MASTER_KEY_FILE?.trim()
    ? resolve(env.MASTER_KEY_FILE.trim())
    : join(dataDir, 'master.key');
  return { databaseUrl, dataDir, migrationsDir, databaseOwnerUrl, auditSigningKey, masterKeyFile };
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Shorter tokens could be guessed by a scraper-shaped client trying many. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

function metricsSettings(env: NodeJS.ProcessEnv, fail: Fail): AppConfig['metrics'] {
  const token = env.METRICS_TOKEN?.trim() || undefined;
  if (token && (token.length < METRICS_TOKEN_MIN_LENGTH || /\s/.test(token)))
    fail('METRICS_TOKEN', `must be at least ${METRICS_TOKEN_MIN_LENGTH} characters without spaces`);
  const raw = env.METRICS_PORT?.trim();
  const port = raw ? Number(raw) : undefined;
  if (raw && (!/^\d+$/.test(raw) || port! < 1 || port! > 65535))
    fail('METRICS_PORT', `must be a port number from 1 to 65535, got "${raw}"`);
  return { token, port };
}

/**
 * TRUST_PROXY: comma-separated addresses, CIDR ranges or names (loopback, linklocal,
 * uniquelocal). Unset trusts no proxy: the client address is the socket's. "Trust everyone" is
 * refused on purpose: it would let any client choose its own address and dodge sign-in throttling.
 */
function trustedProxies(value: string | undefined, fail: Fail): string[] | false {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (!entries.length) return false;
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const version = isIP(address);
    const validPrefix =
      prefix === undefined ||
      (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 6 ? 128 : 32) && !rest.length);
    if (PROXY_NAMES.includes(entry.toLowerCase()) || (version && validPrefix)) continue;
    fail(
      'TRUST_PROXY',
      `must list proxy addresses, CIDR ranges or ${PROXY_NAMES.join('/')}, separated by commas; got "${entry}"`,
    );
  }
  return entries.map((entry) => (PROXY_NAMES.includes(entry.toLowerCase()) ? entry.toLowerCase() : entry));
}
