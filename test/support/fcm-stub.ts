import { generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FcmMessage {
  token: string;
  notification?: { title?: string; body?: string };
  data?: Record<string, string>;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const MESSAGE_KEYS = new Set(['token', 'notification', 'data', 'android', 'webpush', 'apns', 'fcm_options']);

/**
 * A local stand-in for Google's OAuth token endpoint and the FCM HTTP v1 send endpoint, checking
 * what they check: the JWT bearer grant (RS256 signature with the service account's key, iss,
 * aud = the token URI, the firebase.messaging scope, a lifetime of at most an hour); a bearer
 * token it issued; the project in the path; the message shape (string-only data, known keys).
 * It writes a service-account credentials file pointing at itself (`credentialsFile`).
 */
export class FcmStub {
  readonly messages: FcmMessage[] = [];
  readonly rejected: { path: string; status: number; reason: string }[] = [];
  tokenRequests = 0;
  readonly credentialsFile: string;
  readonly clientEmail: string;
  private readonly publicKey: KeyObject;
  private readonly privateKeyPem: string;
  private readonly issued = new Set<string>();
  private readonly unregistered = new Set<string>();
  private readonly script: number[] = [];
  private server!: Server;
  private origin = '';

  private constructor(
    readonly projectId: string,
    private readonly dir: string,
  ) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.publicKey = publicKey;
    this.privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    this.clientEmail = `alignerflow-push@${projectId}.iam.gserviceaccount.com`;
    this.credentialsFile = join(dir, 'service-account.json');
  }

  static async start(projectId = 'alignerflow-test'): Promise<FcmStub> {
    const stub = new FcmStub(projectId, mkdtempSync(join(tmpdir(), 'af-fcm-')));
    stub.server = createServer((request, response) => stub.handle(request, response));
    await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
    stub.origin = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}`;
    writeFileSync(
      stub.credentialsFile,
      JSON.stringify({
        type: 'service_account',
        project_id: projectId,
        private_key_id: randomBytes(8).toString('hex'),
        private_key: stub.privateKeyPem,
        client_email: stub.clientEmail,
        token_uri: `${stub.origin}/token`,
      }),
    );
    return stub;
  }

  /** FCM_ENDPOINT */
  get url(): string {
    return this.origin;
  }

  get tokenUri(): string {
    return `${this.origin}/token`;
  }

  /** The environment that points the app at this stub. */
  env(): Record<string, string> {
    return {
      FCM_PROJECT_ID: this.projectId,
      FCM_CREDENTIALS_FILE: this.credentialsFile,
      FCM_ENDPOINT: this.origin,
    };
  }

  /** The app uninstalled: sends to this token answer 404 UNREGISTERED. */
  unregister(token: string): void {
    this.unregistered.add(token);
  }

  /** The next sends are answered with these statuses. */
  fail(...statuses: number[]): void {
    this.script.push(...statuses);
  }

  /** Every access token issued so far stops working (401), as when it expires early. */
  revokeAccessTokens(): void {
    this.issued.clear();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const body = Buffer.concat(chunks).toString('utf8');
      const reply = (status: number, json: unknown, reason?: string) => {
        if (reason) this.rejected.push({ path, status, reason });
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      };
      const googleError = (status: number, code: string, message: string, errorCode?: string) =>
        reply(
          status,
          {
            error: {
              code: status,
              message,
              status: code,
              ...(errorCode
                ? { details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] }
                : {}),
            },
          },
          errorCode ? undefined : message,
        );

      if (request.method === 'POST' && path === '/token') return this.token(body, reply);
      const send = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path);
      if (request.method !== 'POST' || !send) return googleError(404, 'NOT_FOUND', `No route ${path}`);

      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!bearer || !this.issued.has(bearer))
        return reply(401, {
          error: { code: 401, status: 'UNAUTHENTICATED', message: 'Invalid credentials' },
        });
      if (decodeURIComponent(send[1]) !== this.projectId)
        return googleError(403, 'PERMISSION_DENIED', `Project ${send[1]} is not ${this.projectId}`);
      if (request.headers['content-type']?.split(';')[0] !== 'application/json')
        return googleError(400, 'INVALID_ARGUMENT', 'Content-Type must be application/json');

      let message: FcmMessage;
      try {
        const parsed = JSON.parse(body) as { message?: Record<string, unknown>; validate_only?: boolean };
        message = checkMessage(parsed.message);
      } catch (error) {
        return googleError(400, 'INVALID_ARGUMENT', (error as Error).message);
      }
      const scripted = this.script.shift();
      if (scripted) return googleError(scripted, 'UNAVAILABLE', 'scripted failure', undefined);
      if (this.unregistered.has(message.token))
        return googleError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED');
      this.messages.push(message);
      reply(200, { name: `projects/${this.projectId}/messages/${this.messages.length}` });
    });
  }

  private token(body: string, reply: (status: number, json: unknown, reason?: string) => void): void {
    this.tokenRequests++;
    const form = new URLSearchParams(body);
    const invalid = (reason: string) =>
      reply(400, { error: 'invalid_grant', error_description: reason }, reason);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return invalid('grant_type');
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3) return invalid('assertion is not a JWT');
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    if (header.alg !== 'RS256') return invalid(`alg ${header.alg}`);
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${parts[0]}.${parts[1]}`),
      this.publicKey,
      Buffer.from(parts[2], 'base64url'),
    );
    if (!signed) return invalid('Invalid JWT Signature.');
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== this.clientEmail) return invalid(`iss ${claims.iss}`);
    if (claims.aud !== this.tokenUri) return invalid(`aud ${claims.aud}`);
    if (
      !String(claims.scope ?? '')
        .split(' ')
        .includes(SCOPE)
    )
      return invalid(`scope ${claims.scope}`);
    if (!(claims.iat <= now + 60 && claims.exp > now && claims.exp - claims.iat <= 3600))
      return invalid(`iat ${claims.iat} / exp ${claims.exp}`);
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    this.issued.add(accessToken);
    reply(200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' });
  }
}

function checkMessage(message: Record<string, unknown> | undefined): FcmMessage {
  if (!message || typeof message !== 'object') throw new Error('message is required');
  for (const key of Object.keys(message))
    if (!MESSAGE_KEYS.has(key)) throw new Error(`Invalid JSON payload received. Unknown name "${key}"`);
  if (typeof message.token !== 'string' || !message.token) throw new Error('message.token is required');
  const data = message.data as Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(data ?? {}))
    if (typeof value !== 'string') throw new Error(`data.${key} must be a string`);
  const notification = message.notification as Record<string, unknown> | undefined;
  for (const key of Object.keys(notification ?? {}))
    if (!['title', 'body', 'image'].includes(key)) throw new Error(`notification.${key} is unknown`);
  return message as unknown as FcmMessage;
}
