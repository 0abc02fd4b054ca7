import { createSign } from 'node:crypto';
import type { FcmConfig } from '../../config/notifications.config.js';
import type { NotificationMessage } from '../queue/notification-queue.js';
import { DeliveryError, type SendResult } from './channel-worker.js';

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const TIMEOUT_MS = 10_000;

/**
 * FCM HTTP v1 with a service account: an OAuth2 access token from the JWT bearer flow (RFC 7523;
 * an RS256 JWT signed with the account's private key, exchanged at the credentials' token URI),
 * cached until shortly before it expires, then `POST {endpoint}/v1/projects/{id}/messages:send`.
 */
export class FcmClient {
  private token?: { value: string; expiresAt: number };
  private fetching?: Promise<string>;

  constructor(
    private readonly config: FcmConfig,
    private readonly now: () => number = Date.now,
  ) {}

  async send(token: string, message: NotificationMessage): Promise<SendResult> {
    const accessToken = await this.accessToken();
    const url = `${this.config.endpoint}/v1/projects/${encodeURIComponent(this.config.projectId)}/messages:send`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: fcmMessage(token, message) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new DeliveryError(`FCM request failed: ${(error as Error).message}`, false);
    }
    if (response.ok) {
      await response.body?.cancel();
      return 'delivered';
    }
    const text = await response.text().catch(() => '');
    const code = fcmErrorCode(text);
    if (response.status === 404 || code === 'UNREGISTERED') return 'gone';
    if (response.status === 401) this.token = undefined; // expired or revoked: fetch a new one next time
    const retryable = response.status === 401 || response.status === 429 || response.status >= 500;
    throw new DeliveryError(
      `FCM answered ${response.status}${code ? ` ${code}` : ''}: ${text.slice(0, 200)}`,
      !retryable,
    );
  }

  /** A valid access token, fetched at most once at a time. */
  accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > this.now() + 60_000) return Promise.resolve(this.token.value);
    this.fetching ??= this.fetchToken().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private async fetchToken(): Promise<string> {
    const { clientEmail, privateKey, tokenUri } = this.config.serviceAccount;
    const issuedAt = Math.floor(this.now() / 1000);
    const assertion = signJwt(
      { iss: clientEmail, scope: SCOPE, aud: tokenUri, iat: issuedAt, exp: issuedAt + 3600 },
      privateKey,
    );
    let response: Response;
    try {
      response = await fetch(tokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new DeliveryError(`FCM OAuth token request failed: ${(error as Error).message}`, false);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      // 400/401 (invalid_grant, a revoked key) will not heal by itself.
      throw new DeliveryError(
        `FCM OAuth token endpoint answered ${response.status}: ${text.slice(0, 200)}`,
        response.status < 500 && response.status !== 429,
      );
    }
    const body = JSON.parse(text) as { access_token?: string; expires_in?: number };
    if (!body.access_token)
      throw new DeliveryError('FCM OAuth token endpoint returned no access_token', false);
    this.token = { value: body.access_token, expiresAt: this.now() + (body.expires_in ?? 3600) * 1000 };
    return body.access_token;
  }
}

/** FCM data values must be strings. */
export function fcmMessage(token: string, message: NotificationMessage) {
  return {
    token,
    notification: { title: message.title, body: message.body },
    data: {
      title: message.title,
      body: message.body,
      caseId: message.caseId ?? '',
      url: message.url,
      icon: message.icon,
    },
  };
}

export function signJwt(claims: Record<string, unknown>, privateKeyPem: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(claims)}`;
  const signature = createSign('RSA-SHA256').update(input).sign(privateKeyPem).toString('base64url');
  return `${input}.${signature}`;
}

function fcmErrorCode(text: string): string | undefined {
  try {
    const details = (JSON.parse(text) as { error?: { details?: { errorCode?: string }[]; status?: string } })
      .error;
    return details?.details?.find((detail) => detail.errorCode)?.errorCode ?? details?.status;
  } catch {
    return undefined;
  }
}
