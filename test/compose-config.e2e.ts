import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../backend/src/config/config';

/**
 * docker/compose.yml as Debian's docker-compose reads it (`docker-compose config`): the file
 * parses, refuses to start without ADMIN_PASSWORD, wires the services together, and hands each
 * app process an environment the app's own configuration checks accept.
 *
 * Skipped where docker-compose is not installed, except under CI=true, where it fails: .ci/run
 * installs it, so a missing binary there is a broken CI, not a reason to pass.
 */
const root = resolve(__dirname, '..');
const composeFile = join(root, 'docker', 'compose.yml');
const installed = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
const underCi = process.env.CI === 'true';
const ADMIN_PASSWORD = 'a-long-lab-secret-77';

type Env = Record<string, string>;
interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Env;
  ports?: { published: number | string; target: number }[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: (string | { source: string; target: string })[];
  stop_grace_period?: string;
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** `docker-compose config` with only the given variables (none from the test runner's shell). */
function composeConfig(vars: Env): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('docker-compose', ['-f', composeFile, 'config'], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...vars },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The YAML compose prints, as JSON (python3-yaml comes with Debian's docker-compose). */
function parseYaml(text: string): Compose {
  const result = spawnSync(
    'python3',
    ['-c', 'import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'],
    { input: text, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`python3 could not read the YAML: ${result.stderr}`);
  return JSON.parse(result.stdout) as Compose;
}

function resolved(vars: Env = {}): Compose {
  const out = composeConfig({ ADMIN_PASSWORD, ...vars });
  if (out.status !== 0) throw new Error(`docker-compose config failed: ${out.stderr}`);
  return parseYaml(out.stdout);
}

/** Every environment variable name the backend reads (`env.NAME` or `env['NAME']`). */
function variablesTheBackendReads(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ts$/.test(entry) && !/\.spec\.ts$/.test(entry))
        for (const match of readFileSync(path, 'utf8').matchAll(/env(?:\.|\[')([A-Z][A-Z0-9_]*)/g))
          names.add(match[1]);
    }
  };
  walk(join(root, 'backend', 'src'));
  return names;
}

const APP_SERVICES = { api: 'api', worker: 'worker' } as const;

(installed || underCi ? describe : describe.skip)('docker/compose.yml under docker-compose config', () => {
  it('has docker-compose to run (under CI it must be installed)', () => {
    expect(installed).toBe(true);
  });

  it('refuses to resolve without ADMIN_PASSWORD, naming it', () => {
    const out = composeConfig({});
    expect(out.status).not.toBe(0);
    expect(out.stderr).toContain('set ADMIN_PASSWORD');
  });

  it('runs PostgreSQL, Redis, the API, a worker and nginx, with named volumes', () => {
    const { services, volumes } = resolved();
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'api', 'worker', 'proxy']),
    );
    expect(Object.keys(volumes ?? {})).toEqual(expect.arrayContaining(['postgres', 'redis', 'uploads']));
    for (const name of Object.values(APP_SERVICES)) {
      expect(services[name].build).toMatchObject({ context: root, dockerfile: 'docker/Dockerfile' });
      expect(statSync(join(root, services[name].build!.dockerfile)).isFile()).toBe(true);
    }
  });

  it('gives the app processes an environment the app accepts, with the given ADMIN_PASSWORD', () => {
    const { services } = resolved();
    const postgres = services.postgres.environment!;
    for (const [name, role] of Object.entries(APP_SERVICES)) {
      const env = services[name].environment!;
      expect(env.ADMIN_PASSWORD).toBe(ADMIN_PASSWORD);
      expect(env.PROCESS_ROLE).toBe(role);
      // The URLs point at the compose services, with the credentials PostgreSQL is created with.
      expect(env.DATABASE_URL).toBe(
        `postgres://${postgres.POSTGRES_USER}:${postgres.POSTGRES_PASSWORD}@postgres:5432/${postgres.POSTGRES_DB}`,
      );
      expect(env.REDIS_URL).toBe('redis://redis:6379');

      const config = loadConfig(env);
      expect(config).toMatchObject({
        processRole: role,
        adminPassword: ADMIN_PASSWORD,
        demoData: false,
        secureCookies: true,
        trustProxy: ['uniquelocal'],
        dataDir: '/data',
      });
      // Docker must never need to SIGKILL a drain.
      const grace = Number(/^(\d+)s$/.exec(services[name].stop_grace_period ?? '')?.[1]);
      expect(grace * 1000).toBeGreaterThan(config.shutdown.delayMs + config.shutdown.timeoutMs);
    }
  });

  it('names only variables the backend reads (a misspelt one would be silently ignored)', () => {
    const { services } = resolved();
    const known = variablesTheBackendReads();
    for (const name of Object.values(APP_SERVICES))
      for (const variable of Object.keys(services[name].environment!))
        expect({ service: name, variable, read: known.has(variable) }).toEqual({
          service: name,
          variable,
          read: true,
        });
  });

  it('passes a too-short ADMIN_PASSWORD through, and the API refuses to start with it', () => {
    const { services } = resolved({ ADMIN_PASSWORD: 'short' });
    expect(() => loadConfig(services.api.environment!)).toThrow(/ADMIN_PASSWORD must be at least 12/);
  });

  it('publishes only nginx, which waits for a ready API', () => {
    const { services } = resolved();
    expect(services.api.ports).toBeUndefined();
    expect(services.worker.ports).toBeUndefined();
    expect(services.proxy.ports).toEqual([{ published: 8080, target: 80 }]);
    expect(resolved({ PORT: '9090' }).services.proxy.ports).toEqual([{ published: 9090, target: 80 }]);
    expect(services.proxy.depends_on).toEqual({ api: { condition: 'service_healthy' } });
    expect(services.api.healthcheck?.test.join(' ')).toContain('/api/health/ready');
    const nginxConf = services.proxy.volumes?.find(
      (volume) => typeof volume === 'string' && volume.includes('/etc/nginx/conf.d/default.conf'),
    ) as string;
    expect(statSync(nginxConf.split(':')[0]).isFile()).toBe(true);
  });

  it('starts the app only once PostgreSQL and Redis are healthy', () => {
    const { services } = resolved();
    for (const name of Object.values(APP_SERVICES))
      expect(services[name].depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
  });
});
