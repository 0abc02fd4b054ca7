import { readFileSync } from 'node:fs';
import { AT_RISK_DAYS } from '@alignerflow/domain';
import { fail, integerInRange, type Fail, type ProcessRole } from './env-values.js';

export interface FcmServiceAccount {
  clientEmail: string;
  privateKey: string;
  tokenUri: string;
}

export interface FcmConfig {
  projectId: string;
  /** Without a trailing slash, e.g. https://fcm.googleapis.com */
  endpoint: string;
  serviceAccount: FcmServiceAccount;
}

export interface EmailConfig {
  /** smtp:// or smtps:// (SMTP_URL), credentials included; nodemailer reads it as is. */
  smtpUrl: string;
  /** The From header (MAIL_FROM). */
  from: string;
  /** Where the app is reached (PUBLIC_URL); the emails link to cases under it. */
  publicUrl: string;
}

/** What the notifications read of the app's own settings (loadConfig's AppConfig has them). */
export interface AppSettings {
  basePath: string;
  dataDir: string;
  redisUrl: string | undefined;
  processRole: ProcessRole;
  port: number;
}

export interface NotificationsConfig {
  basePath: string;
  dataDir: string;
  redisUrl: string | undefined;
  processRole: ProcessRole;
  /** From VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY; null: generated once and kept in DATA_DIR. */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  vapidSubject: string;
  /** null: FCM is not configured (its send endpoint answers 503). */
  fcm: FcmConfig | null;
  /** BullMQ key prefix (NOTIFICATIONS_QUEUE_PREFIX), so deployments or tests can share a Redis. */
  queuePrefix: string;
  /** Jobs one worker process runs at once (NOTIFICATIONS_CONCURRENCY). */
  concurrency: number;
  /** First retry delay; each next one doubles (NOTIFICATIONS_BACKOFF_MS). */
  backoffMs: number;
  /** How long a crashed worker's job stays locked before another worker takes it (NOTIFICATIONS_LOCK_MS). */
  lockMs: number;
  /**
   * `host:port` of push services that may be on a non-public address (PUSH_ALLOWED_HOSTS):
   * on-premise services and tests. Lower-cased, IPv6 hosts in brackets, as pushEndpointHost() gives.
   */
  pushAllowedHosts: ReadonlySet<string>;
  /** null: no SMTP_URL, no email channel (nothing fails, nothing is sent by email). */
  email: EmailConfig | null;
  /** How often the at-risk scan looks (RISK_SCAN_INTERVAL_MS). */
  riskScanIntervalMs: number;
  /** The at-risk window in days (AT_RISK_DAYS of libs/domain, overridden by the variable). */
  atRiskDays: number;
}

export const NOTIFICATIONS_CONFIG = Symbol('NOTIFICATIONS_CONFIG');

export const MAX_ATTEMPTS = 5;
const DEFAULT_SUBJECT = 'mailto:admin@example.com';
const FCM_DEFAULT_ENDPOINT = 'https://fcm.googleapis.com';

/** Read by loadConfig, once at start: a wrong value stops the boot naming its variable. */
export function loadNotificationsConfig(app: AppSettings, env: NodeJS.ProcessEnv): NotificationsConfig {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() || undefined;
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() || undefined;
  if (publicKey && !privateKey) fail('VAPID_PRIVATE_KEY', 'is required when VAPID_PUBLIC_KEY is set');
  if (privateKey && !publicKey) fail('VAPID_PUBLIC_KEY', 'is required when VAPID_PRIVATE_KEY is set');
  if (publicKey && base64UrlBytes(publicKey) !== 65)
    fail('VAPID_PUBLIC_KEY', 'must be a URL-safe base64 P-256 public key (65 bytes)');
  if (privateKey && base64UrlBytes(privateKey) !== 32)
    fail('VAPID_PRIVATE_KEY', 'must be a URL-safe base64 P-256 private key (32 bytes)');
  const vapidSubject = env.VAPID_SUBJECT?.trim() || DEFAULT_SUBJECT;
  if (!/^(mailto:.+|https:\/\/.+)$/.test(vapidSubject))
    fail('VAPID_SUBJECT', `must be a mailto: or https: URL, got "${vapidSubject}"`);

  return {
    basePath: app.basePath,
    dataDir: app.dataDir,
    redisUrl: app.redisUrl,
    processRole: app.processRole,
    vapidKeys: publicKey && privateKey ? { publicKey, privateKey } : null,
    vapidSubject,
    fcm: loadFcm(env, fail),
    queuePrefix: env.NOTIFICATIONS_QUEUE_PREFIX?.trim() || 'bull',
    concurrency: positiveInt(env, 'NOTIFICATIONS_CONCURRENCY', 100, fail),
    backoffMs: positiveInt(env, 'NOTIFICATIONS_BACKOFF_MS', 1000, fail),
    lockMs: positiveInt(env, 'NOTIFICATIONS_LOCK_MS', 15000, fail),
    pushAllowedHosts: loadPushAllowedHosts(env, fail),
    email: loadEmail(app, env, fail),
    riskScanIntervalMs: positiveInt(env, 'RISK_SCAN_INTERVAL_MS', 900_000, fail),
    atRiskDays: integerInRange('AT_RISK_DAYS', env.AT_RISK_DAYS, AT_RISK_DAYS, 0, 365, fail),
  };
}

const DEFAULT_MAIL_FROM = 'AlignerFlow <alignerflow@localhost>';

function loadEmail(
  app: Pick<AppSettings, 'basePath' | 'port'>,
  env: NodeJS.ProcessEnv,
  fail: Fail,
): EmailConfig | null {
  const publicSetting = env.PUBLIC_URL?.trim() || undefined;
  const publicUrl = publicSetting ?? `http://localhost:${app.port}${app.basePath}`;
  const parsedPublic = parseUrl(publicUrl);
  if (!parsedPublic || !/^https?:$/.test(parsedPublic.protocol) || parsedPublic.hash)
    fail('PUBLIC_URL', `must be an http(s) URL without a fragment, got "${publicUrl}"`);
  const from = env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;
  // A bare address or "Name <address>", one line: it becomes a header.
  if (!/^([^<>\r\n]*<[^@\s<>]+@[^@\s<>]+>|[^@\s<>]+@[^@\s<>]+)$/.test(from))
    fail('MAIL_FROM', `must be an address or "Name <address>", got "${from}"`);
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  if (!smtpUrl) return null;
  const parsed = parseUrl(smtpUrl);
  if (!parsed || !/^smtps?:$/.test(parsed.protocol) || !parsed.hostname)
    fail('SMTP_URL', 'must be an smtp:// or smtps:// URL with a host');
  return { smtpUrl, from, publicUrl: publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/` };
}

/** `host:port` of an https URL, the form PUSH_ALLOWED_HOSTS lists (443 when the URL names no port). */
export function pushEndpointHost(url: URL): string {
  return `${url.hostname}:${url.port || '443'}`;
}

function loadPushAllowedHosts(env: NodeJS.ProcessEnv, fail: Fail): ReadonlySet<string> {
  const hosts = new Set<string>();
  for (const entry of (env.PUSH_ALLOWED_HOSTS ?? '').split(',').map((item) => item.trim())) {
    if (!entry) continue;
    // The port is required, so that an entry never quietly means 443 when another port was meant.
    const port = /^.+:(\d{1,5})$/.exec(entry)?.[1];
    const url = port ? parseUrl(`https://${entry}`) : null;
    // Only the host as a URL writes it (no path, no user, no shorthand IPv4 such as 0x7f.1).
    if (!url || `${url.hostname}:${port}` !== entry.toLowerCase())
      fail('PUSH_ALLOWED_HOSTS', `must be a comma-separated list of host:port, got "${entry}"`);
    if (Number(port) < 1 || Number(port) > 65535)
      fail('PUSH_ALLOWED_HOSTS', `has a port out of range in "${entry}"`);
    hosts.add(`${url!.hostname}:${port}`);
  }
  return hosts;
}

function loadFcm(env: NodeJS.ProcessEnv, fail: Fail): FcmConfig | null {
  const file = env.FCM_CREDENTIALS_FILE?.trim() || undefined;
  const projectIdSetting = env.FCM_PROJECT_ID?.trim() || undefined;
  const endpointSetting = env.FCM_ENDPOINT?.trim() || undefined;
  if (!file) {
    if (projectIdSetting) fail('FCM_CREDENTIALS_FILE', 'is required when FCM_PROJECT_ID is set');
    return null;
  }
  let credentials: Record<string, unknown>;
  try {
    credentials = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail(
      'FCM_CREDENTIALS_FILE',
      `must name a readable service-account JSON file (${(error as Error).message})`,
    );
  }
  const text = (key: string) => (typeof credentials[key] === 'string' ? (credentials[key] as string) : '');
  const clientEmail = text('client_email');
  const privateKey = text('private_key');
  const tokenUri = text('token_uri') || 'https://oauth2.googleapis.com/token';
  if (!clientEmail || !privateKey.includes('PRIVATE KEY'))
    fail('FCM_CREDENTIALS_FILE', 'must be a service-account key with client_email and private_key');
  if (!/^https?:\/\//.test(tokenUri)) fail('FCM_CREDENTIALS_FILE', 'has an invalid token_uri');
  const projectId = projectIdSetting ?? text('project_id');
  if (!projectId) fail('FCM_PROJECT_ID', 'is required (the credentials file names no project_id)');
  const endpoint = (endpointSetting ?? FCM_DEFAULT_ENDPOINT).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(endpoint))
    fail('FCM_ENDPOINT', `must be an http(s) URL, got "${endpointSetting}"`);
  return { projectId, endpoint, serviceAccount: { clientEmail, privateKey, tokenUri } };
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, fail: Fail): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) fail(name, `must be a positive integer, got "${raw}"`);
  return value;
}

function base64UrlBytes(value: string): number {
  return /^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64url').length : -1;
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
