import { resolve } from 'node:path';

export interface AppConfig {
  port: number;
  basePath: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  dataDir: string;
  adminPassword: string;
  demoData: boolean;
  processRole: 'all' | 'api' | 'worker';
  /** Whether cookies must be Secure: behind TLS in production. */
  secureCookies: boolean;
  ai: { apiKey: string | undefined; model: string; endpoint: string };
  shutdown: {
    /** After SIGTERM, how long the listener stays open answering readiness 503 (SHUTDOWN_DELAY_MS). */
    delayMs: number;
    /** The bound on the whole shutdown; past it the process exits anyway (SHUTDOWN_TIMEOUT_MS). */
    timeoutMs: number;
  };
}

export class ConfigError extends Error {}

/** Reads the environment once, at start; a wrong value stops the boot naming its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const fail = (name: string, why: string): never => {
    throw new ConfigError(`Invalid configuration: ${name} ${why}`);
  };
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail('PORT', `must be a port number, got "${env.PORT}"`);

  let basePath = env.BASE_PATH?.trim() || '/';
  if (!basePath.startsWith('/')) basePath = `/${basePath}`;
  if (!basePath.endsWith('/')) basePath = `${basePath}/`;
  if (!/^\/([A-Za-z0-9._~-]+\/)*$/.test(basePath))
    fail('BASE_PATH', `must be a URL path such as /portal/, got "${env.BASE_PATH}"`);

  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    fail('DATABASE_URL', 'must be a postgres:// URL');
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) fail('REDIS_URL', 'must be a redis:// URL');

  const demoFlag = env.DEMO_DATA?.trim();
  if (demoFlag && demoFlag !== '0' && demoFlag !== '1')
    fail('DEMO_DATA', `must be 0 or 1, got "${demoFlag}"`);
  const demoData = demoFlag ? demoFlag === '1' : !databaseUrl;

  const adminPassword = env.ADMIN_PASSWORD ?? (demoData ? 'demo' : '');
  if (databaseUrl && !env.ADMIN_PASSWORD && !demoData)
    fail('ADMIN_PASSWORD', 'is required when DATABASE_URL is set');

  const processRole = (env.PROCESS_ROLE?.trim() || 'all') as AppConfig['processRole'];
  if (!['all', 'api', 'worker'].includes(processRole)) fail('PROCESS_ROLE', 'must be all, api or worker');
  if (processRole !== 'all' && !redisUrl)
    fail('PROCESS_ROLE', `${processRole} needs REDIS_URL (separate processes share work through Redis)`);

  return {
    port,
    basePath,
    databaseUrl,
    redisUrl,
    dataDir: resolve(env.DATA_DIR?.trim() || './data'),
    adminPassword,
    demoData,
    processRole,
    secureCookies: env.SECURE_COOKIES === '1',
    ai: {
      apiKey: env.AI_API_KEY?.trim() || undefined,
      model: env.AI_MODEL?.trim() || 'gemini-2.5-flash',
      endpoint: checkedUrl('AI_ENDPOINT', env.AI_ENDPOINT, 'https://generativelanguage.googleapis.com', fail),
    },
    shutdown: {
      delayMs: milliseconds('SHUTDOWN_DELAY_MS', env.SHUTDOWN_DELAY_MS, 0, fail),
      timeoutMs: milliseconds('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000, fail),
    },
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');

function checkedUrl(
  name: string,
  value: string | undefined,
  fallback: string,
  fail: (name: string, why: string) => never,
) {
  const url = value?.trim() || fallback;
  if (!/^https?:\/\/[^\s]+$/.test(url)) fail(name, `must be an http(s) URL, got "${value}"`);
  return url.replace(/\/$/, '');
}

function milliseconds(
  name: string,
  value: string | undefined,
  fallback: number,
  fail: (name: string, why: string) => never,
): number {
  const raw = value?.trim();
  if (!raw) return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0) fail(name, `must be a whole number of milliseconds, got "${raw}"`);
  return ms;
}
