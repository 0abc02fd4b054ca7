import { ConfigError, loadConfig } from './config';

describe('loadConfig: shutdown', () => {
  it('drains at once and gives up after 10 s unless told otherwise', () => {
    expect(loadConfig({}).shutdown).toEqual({ delayMs: 0, timeoutMs: 10_000 });
    expect(loadConfig({ SHUTDOWN_DELAY_MS: '5000', SHUTDOWN_TIMEOUT_MS: '30000' }).shutdown).toEqual({
      delayMs: 5000,
      timeoutMs: 30_000,
    });
  });

  it.each([
    ['SHUTDOWN_DELAY_MS', '-1'],
    ['SHUTDOWN_TIMEOUT_MS', '10s'],
    ['SHUTDOWN_TIMEOUT_MS', '1.5'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(
      `Invalid configuration: ${name} must be a whole number of milliseconds, got "${value}"`,
    );
  });
});

describe('loadConfig: safe defaults', () => {
  const STORE = { DATABASE_URL: 'postgres://db.example/lab' };

  it('requires ADMIN_PASSWORD of at least 12 characters whenever demo mode is off', () => {
    for (const env of [{ DEMO_DATA: '0' }, STORE, { ...STORE, DEMO_DATA: '0' }]) {
      expect(() => loadConfig(env)).toThrow(
        'Invalid configuration: ADMIN_PASSWORD is required unless DEMO_DATA=1',
      );
      expect(() => loadConfig({ ...env, ADMIN_PASSWORD: 'demo' })).toThrow(
        'Invalid configuration: ADMIN_PASSWORD must be at least 12 characters unless DEMO_DATA=1',
      );
      expect(() => loadConfig({ ...env, ADMIN_PASSWORD: '' })).toThrow(ConfigError);
      expect(loadConfig({ ...env, ADMIN_PASSWORD: 'twelve-chars' }).adminPassword).toBe('twelve-chars');
    }
  });

  it('keeps the demo password in demo mode and asks no ADMIN_PASSWORD of a worker', () => {
    expect(loadConfig({}).adminPassword).toBe('demo');
    expect(loadConfig({ ...STORE, DEMO_DATA: '1' }).adminPassword).toBe('demo');
    expect(() =>
      loadConfig({ ...STORE, PROCESS_ROLE: 'worker', REDIS_URL: 'redis://127.0.0.1:6379' }),
    ).not.toThrow();
  });

  it('refuses demo mode with NODE_ENV=production, naming DEMO_DATA', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /^Invalid configuration: DEMO_DATA must be 0 when NODE_ENV=production/,
    );
    expect(() => loadConfig({ ...STORE, DEMO_DATA: '1', NODE_ENV: 'production' })).toThrow(
      /^Invalid configuration: DEMO_DATA must not be 1 when NODE_ENV=production/,
    );
    expect(loadConfig({ ...STORE, NODE_ENV: 'production', ADMIN_PASSWORD: 'a-long-secret' }).demoData).toBe(
      false,
    );
  });

  it('reads SECURE_COOKIES as 0 or 1', () => {
    expect(loadConfig({}).secureCookies).toBe(false);
    expect(loadConfig({ SECURE_COOKIES: '1' }).secureCookies).toBe(true);
    expect(() => loadConfig({ SECURE_COOKIES: 'yes' })).toThrow(
      'Invalid configuration: SECURE_COOKIES must be 0 or 1, got "yes"',
    );
  });
});

describe('loadConfig: TRUST_PROXY', () => {
  it('trusts no proxy unless told', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: ' ' }).trustProxy).toBe(false);
  });

  it('takes addresses, CIDR ranges and the names proxy-addr knows', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 172.16.0.0/12,Loopback,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.5',
      '172.16.0.0/12',
      'loopback',
      '::1',
      'fd00::/8',
    ]);
  });

  it.each(['true', '*', '10.0.0.0/33', 'proxy.example', '1', '10.0.0.1/8/2'])(
    'refuses %s, naming the variable',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /^Invalid configuration: TRUST_PROXY must list/,
      );
    },
  );
});

describe('loadConfig: SESSION_IDLE_MINUTES', () => {
  it('is 30 minutes unless told, and a whole number of at least 1', () => {
    expect(loadConfig({}).sessionIdleMinutes).toBe(30);
    expect(loadConfig({ SESSION_IDLE_MINUTES: '90' }).sessionIdleMinutes).toBe(90);
    for (const value of ['0', '-5', '1.5', 'soon'])
      expect(() => loadConfig({ SESSION_IDLE_MINUTES: value })).toThrow(
        `Invalid configuration: SESSION_IDLE_MINUTES must be a whole number of at least 1, got "${value}"`,
      );
  });
});

describe('loadConfig: one reading of the whole environment', () => {
  const WORKER = { PROCESS_ROLE: 'worker', REDIS_URL: 'redis://127.0.0.1:6379' };

  it('reads the pool size, host, log level and migrations folder with their defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ host: '0.0.0.0', databasePoolSize: 20, logLevel: 'info' });
    expect(config.migrationsDir).toBeUndefined();
    expect(loadConfig(WORKER).databasePoolSize).toBe(10);
    expect(
      loadConfig({ HOST: '127.0.0.1', DATABASE_POOL_SIZE: '5', LOG_LEVEL: 'warn', MIGRATIONS_DIR: '/srv/m' }),
    ).toMatchObject({ host: '127.0.0.1', databasePoolSize: 5, logLevel: 'warn', migrationsDir: '/srv/m' });
  });

  it('reads the owner role and the signing key, and refuses an owner without DATABASE_URL', () => {
    const url = 'postgres://app@db/lab';
    const owner = 'postgres://owner@db/lab';
    expect(loadConfig({ DEMO_DATA: '1', DATABASE_URL: url })).toMatchObject({
      databaseOwnerUrl: undefined,
      auditSigningKey: undefined,
    });
    expect(
      loadConfig({
        DEMO_DATA: '1',
        DATABASE_URL: url,
        DATABASE_OWNER_URL: owner,
        AUDIT_SIGNING_KEY: '/keys/audit.pem',
      }),
    ).toMatchObject({ databaseUrl: url, databaseOwnerUrl: owner, auditSigningKey: '/keys/audit.pem' });
    expect(() => loadConfig({ DATABASE_OWNER_URL: owner })).toThrow(
      'Invalid configuration: DATABASE_OWNER_URL needs DATABASE_URL (the embedded database sets up both roles itself)',
    );
    expect(() => loadConfig({ DEMO_DATA: '1', DATABASE_URL: url, DATABASE_OWNER_URL: 'mysql://x' })).toThrow(
      'Invalid configuration: DATABASE_OWNER_URL must be a postgres:// URL',
    );
  });

  it('carries the live stream and notification settings read from the same environment', () => {
    const config = loadConfig({ LIVE_POLL_MS: '250', NOTIFICATIONS_CONCURRENCY: '8' });
    expect(config.live.pollMs).toBe(250);
    expect(config.notifications.concurrency).toBe(8);
    expect(config.notifications.dataDir).toBe(config.dataDir);
  });

  it.each([
    ['LOG_LEVEL', 'loud', 'must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    ['DATABASE_POOL_SIZE', '0', 'must be an integer from 1 to 1000, got "0"'],
    ['DATABASE_POOL_SIZE', 'many', 'must be an integer from 1 to 1000, got "many"'],
    ['LIVE_POLL_MS', '5', 'must be an integer from 10 to 3600000, got "5"'],
    ['NOTIFICATIONS_LOCK_MS', '-3', 'must be a positive integer, got "-3"'],
  ])('refuses %s=%s, naming the variable', (name, value, why) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`Invalid configuration: ${name} ${why}`);
  });
});

describe('loadConfig: accounts (api.md Accounts)', () => {
  const STORE = { DATABASE_URL: 'postgres://db.example/lab', ADMIN_PASSWORD: 'a-long-lab-secret-77' };

  it('asks Managers for a second factor outside demo mode, nobody in demo mode, unless told', () => {
    expect(loadConfig(STORE).accounts.mfaRequiredRoles).toEqual(['Manager']);
    expect(loadConfig({}).accounts.mfaRequiredRoles).toEqual([]);
    expect(loadConfig({ ...STORE, MFA_REQUIRED_ROLES: '' }).accounts.mfaRequiredRoles).toEqual([]);
    expect(loadConfig({ MFA_REQUIRED_ROLES: ' manager, Doctor ,doctor' }).accounts.mfaRequiredRoles).toEqual([
      'Manager',
      'Doctor',
    ]);
  });

  it('refuses an unknown role in MFA_REQUIRED_ROLES, naming it', () => {
    expect(() => loadConfig({ MFA_REQUIRED_ROLES: 'Manager,Wizard' })).toThrow(
      'Invalid configuration: MFA_REQUIRED_ROLES must list roles separated by commas, got "Wizard"',
    );
  });

  it('makes the passkeys belong to the host name of PUBLIC_URL, checked against its origin', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://lab.example.com:8443/portal/' }).accounts.webauthn).toEqual({
      rpId: 'lab.example.com',
      rpName: 'AlignerFlow',
      origin: 'https://lab.example.com:8443',
    });
    expect(loadConfig({ PORT: '3000' }).accounts.webauthn).toMatchObject({
      rpId: 'localhost',
      origin: 'http://localhost:3000',
    });
  });

  it('refuses an ADMIN_PASSWORD that is a common password or holds "admin"', () => {
    for (const password of ['password1234', 'my-admin-password'])
      expect(() => loadConfig({ ...STORE, ADMIN_PASSWORD: password })).toThrow(
        'Invalid configuration: ADMIN_PASSWORD is too easy to guess',
      );
  });
});
