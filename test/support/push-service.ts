import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
  type ECDH,
  type KeyObject,
} from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A browser's push subscription as PushSubscription.toJSON() gives it, plus what the browser keeps. */
export interface BrowserSubscription {
  id: string;
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscriptionId: string;
  /** The decrypted payload, parsed as JSON. */
  payload: any;
  ttl: number;
  topic: string | undefined;
  urgency: string | undefined;
  vapid: { sub: string; aud: string; exp: number; publicKey: string };
  at: number;
}

interface Device {
  id: string;
  ecdh: ECDH;
  auth: Buffer;
  expired: boolean;
  /** Status codes to answer the next requests with, instead of accepting them. */
  script: number[];
}

interface HeldRequest {
  response: ServerResponse;
  accept: () => void;
  /** The sender's end of the connection. */
  clientPort: number;
  /** The sender went away (its connection closed) while the request was held. */
  gone: () => boolean;
}

/**
 * A local web push service over HTTPS (self-signed certificate made with the openssl CLI) that
 * checks what a real one checks and decrypts what only the browser could:
 * - the VAPID JWT (RFC 8292): ES256 signature against the key in `k`, `aud` = this origin,
 *   `exp` in the future and at most 24 h ahead, `sub` a mailto: or https: URL, and `k` the
 *   application server key the browser subscribed with (`expectVapidKey`);
 * - the aes128gcm body (RFC 8291/8188), decrypted with the subscription's private key and auth
 *   secret; the payload must be JSON.
 * A message counts as received when the 201 is sent on a still-open connection: a request whose
 * sender died while the service held it (`hold()`) was never accepted, as with a real service.
 * Requests that break the protocol are answered 400/401/403 and listed in `rejected`.
 */
export class PushService {
  readonly received: ReceivedPush[] = [];
  readonly rejected: { path: string; status: number; reason: string }[] = [];
  /** Requests dropped because the sender went away while they were held. */
  dropped = 0;
  /** TCP connections accepted, whatever came of them. */
  connections = 0;
  readonly caPem: string;
  /** The certificate as a file, for NODE_EXTRA_CA_CERTS of child processes. */
  readonly caFile: string;
  private readonly devices = new Map<string, Device>();
  private readonly held: HeldRequest[] = [];
  private holding = false;
  private expectedKey?: string;
  private server!: Server;
  private origin = '';

  private constructor(private readonly dir: string) {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    this.caFile = join(dir, 'cert.pem');
    this.caPem = readFileSync(this.caFile, 'utf8');
  }

  static async start(): Promise<PushService> {
    const service = new PushService(mkdtempSync(join(tmpdir(), 'af-push-')));
    service.server = createServer(
      { key: readFileSync(join(service.dir, 'key.pem')), cert: service.caPem },
      (request, response) => service.handle(request, response),
    );
    service.server.on('connection', () => service.connections++);
    await new Promise<void>((resolve) => service.server.listen(0, '127.0.0.1', resolve));
    service.origin = `https://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
    return service;
  }

  get url(): string {
    return this.origin;
  }

  get port(): number {
    return Number(new URL(this.origin).port);
  }

  /** Its `host:port`, as PUSH_ALLOWED_HOSTS lists it. */
  get host(): string {
    return new URL(this.origin).host;
  }

  /** The application server key every message must be signed with (GET /push/vapid-public-key). */
  expectVapidKey(publicKey: string): void {
    this.expectedKey = publicKey;
  }

  /** What a browser does on pushManager.subscribe(): a fresh P-256 key pair and auth secret. */
  subscribe(): BrowserSubscription {
    const id = randomBytes(8).toString('hex');
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const device: Device = { id, ecdh, auth: randomBytes(16), expired: false, script: [] };
    this.devices.set(id, device);
    return {
      id,
      endpoint: `${this.origin}/push/${id}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: device.auth.toString('base64url') },
    };
  }

  /** The next requests for this subscription are answered with these statuses (e.g. [500, 500]). */
  script(subscription: { id: string }, statuses: number[]): void {
    this.device(subscription).script.push(...statuses);
  }

  /** From now on the subscription is gone: 410, as after the user revoked permission. */
  expire(subscription: { id: string }): void {
    this.device(subscription).expired = true;
  }

  receivedBy(subscription: { id: string }): ReceivedPush[] {
    return this.received.filter((push) => push.subscriptionId === subscription.id);
  }

  /** Keep valid requests unanswered (and so not yet accepted) until release(). */
  hold(): void {
    this.holding = true;
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Held requests that came over connections from these client ports and are still open. */
  heldOpenFrom(clientPorts: ReadonlySet<number>): number {
    return this.held.filter((request) => clientPorts.has(request.clientPort) && !request.gone()).length;
  }

  release(): void {
    this.holding = false;
    for (const request of this.held.splice(0)) request.accept();
  }

  async waitFor(condition: () => boolean, timeoutMs = 15000, what = 'push messages'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline)
        throw new Error(
          `Timed out waiting for ${what}: ${this.received.length} received, ${this.rejected.length} rejected`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private device(subscription: { id: string }): Device {
    const device = this.devices.get(subscription.id);
    if (!device) throw new Error(`unknown subscription ${subscription.id}`);
    return device;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const answer = (status: number, reason?: string) => {
        if (reason) this.rejected.push({ path, status, reason });
        response.writeHead(status, { 'content-type': 'text/plain' }).end(reason ?? '');
      };
      const match = /^\/push\/([0-9a-f]+)$/.exec(path);
      const device = match && this.devices.get(match[1]);
      if (request.method !== 'POST' || !device) return answer(404);
      if (device.expired) return answer(410);
      const scripted = device.script.shift();
      if (scripted) return answer(scripted);

      let received: ReceivedPush;
      try {
        received = this.check(device, request, Buffer.concat(chunks));
      } catch (error) {
        const { status, message } = error as { status?: number; message: string };
        return answer(status ?? 400, message);
      }
      const gone = () => response.destroyed || request.socket.destroyed;
      const accept = () => {
        if (gone()) {
          this.dropped++;
          return;
        }
        this.received.push({ ...received, at: Date.now() });
        response
          .writeHead(201, { location: `${this.origin}/message/${randomBytes(6).toString('hex')}` })
          .end();
      };
      if (this.holding)
        this.held.push({ response, accept, clientPort: request.socket.remotePort ?? 0, gone });
      else accept();
    });
  }

  private check(device: Device, request: IncomingMessage, body: Buffer): ReceivedPush {
    const fail = (status: number, message: string) => Object.assign(new Error(message), { status });
    if (request.headers['content-encoding'] !== 'aes128gcm')
      throw fail(400, 'Content-Encoding must be aes128gcm');
    const ttl = Number(request.headers.ttl);
    if (!Number.isInteger(ttl) || ttl < 0) throw fail(400, 'TTL header missing or invalid');
    const topic = request.headers.topic as string | undefined;
    if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) throw fail(400, 'Topic invalid');

    const auth = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(request.headers.authorization ?? '');
    if (!auth) throw fail(401, 'Authorization must be "vapid t=<jwt>, k=<key>"');
    const [, jwt, key] = auth;
    const claims = verifyVapidJwt(jwt, key, (message) => fail(401, message));
    if (claims.aud !== this.origin) throw fail(401, `JWT aud ${claims.aud} is not ${this.origin}`);
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.exp !== 'number' || claims.exp <= now || claims.exp > now + 24 * 3600)
      throw fail(401, `JWT exp ${claims.exp} is not within the next 24 h`);
    if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
      throw fail(401, `JWT sub ${claims.sub} is not a mailto: or https: URL`);
    if (this.expectedKey && key !== this.expectedKey)
      throw fail(403, 'k is not the application server key of the subscription');

    let payload: unknown;
    try {
      payload = JSON.parse(decryptAes128gcm(body, device.ecdh, device.auth).toString('utf8'));
    } catch (error) {
      throw fail(400, `payload does not decrypt to JSON: ${(error as Error).message}`);
    }
    return {
      subscriptionId: device.id,
      payload,
      ttl,
      topic,
      urgency: request.headers.urgency as string | undefined,
      vapid: { sub: claims.sub, aud: claims.aud, exp: claims.exp, publicKey: key },
      at: 0,
    };
  }
}

function verifyVapidJwt(jwt: string, key: string, fail: (message: string) => Error): Record<string, any> {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw fail('JWT must have three parts');
  const [headerPart, claimsPart, signaturePart] = parts;
  const header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8'));
  if (header.alg !== 'ES256' || header.typ !== 'JWT') throw fail(`JWT header ${JSON.stringify(header)}`);
  const publicKey = applicationServerKey(key, fail);
  const signed = verify(
    'sha256',
    Buffer.from(`${headerPart}.${claimsPart}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signaturePart, 'base64url'),
  );
  if (!signed) throw fail('JWT signature does not verify with k');
  return JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8'));
}

/** The key object of a `k` (one application server sends them all: imported once, as a real service would). */
const serverKeys = new Map<string, KeyObject>();

function applicationServerKey(key: string, fail: (message: string) => Error): KeyObject {
  const known = serverKeys.get(key);
  if (known) return known;
  const raw = Buffer.from(key, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw fail('k must be an uncompressed P-256 point');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  serverKeys.set(key, publicKey);
  return publicKey;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8188 content coding with the RFC 8291 key derivation, as the browser decrypts a push. */
export function decryptAes128gcm(body: Buffer, ecdh: ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20];
  const serverPublicKey = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  if (keyIdLength !== 65) throw new Error(`keyid must be the 65-byte server key, got ${keyIdLength}`);
  if (record.length > recordSize) throw new Error('expected a single record');

  const userAgentPublicKey = ecdh.getPublicKey();
  const ecdhSecret = ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), userAgentPublicKey, serverPublicKey]);
  const ikm = hmac(hmac(authSecret, ecdhSecret), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('the last record must end with the 0x02 delimiter');
  return plain.subarray(0, end);
}

type IpcRequest = { id: number; op: 'expectVapidKey' | 'subscribe' | 'counts' | 'close'; arg?: string };

/**
 * The same push service in a process of its own (benchmarks): its checks (a TLS server, an
 * ES256 verification and an ECDH decryption per message) then do not share the event loop of
 * the process that measures, and their CPU can be told apart. Driven over IPC.
 */
export class PushServiceProcess {
  private next = 0;
  private readonly waiting = new Map<number, (result: any) => void>();

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly caFile: string,
  ) {
    child.on('message', (message: { id: number; result: unknown }) => {
      this.waiting.get(message.id)?.(message.result);
      this.waiting.delete(message.id);
    });
  }

  static async start(): Promise<PushServiceProcess> {
    const register = join(__dirname, 'swc-register.cjs');
    const child = spawn(process.execPath, ['-r', register, __filename], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await new Promise<{ url: string; caFile: string }>((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`the push service process exited with ${code}`)));
    });
    return new PushServiceProcess(child, ready.url, ready.caFile);
  }

  expectVapidKey(publicKey: string): Promise<void> {
    return this.call('expectVapidKey', publicKey);
  }

  subscribe(): Promise<BrowserSubscription> {
    return this.call('subscribe');
  }

  /** Messages accepted so far, and every request refused. */
  counts(): Promise<{ received: number; rejected: PushService['rejected'] }> {
    return this.call('counts');
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.call('close');
    await exited;
  }

  private call<T>(op: IpcRequest['op'], arg?: string): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ id, op, arg } satisfies IpcRequest);
    });
  }
}

/** The child side of PushServiceProcess. */
async function serveOverIpc(): Promise<void> {
  const service = await PushService.start();
  const send = (message: unknown) => process.send!(message);
  process.on('message', async ({ id, op, arg }: IpcRequest) => {
    if (op === 'expectVapidKey') send({ id, result: service.expectVapidKey(arg!) });
    else if (op === 'subscribe') send({ id, result: service.subscribe() });
    else if (op === 'counts')
      send({ id, result: { received: service.received.length, rejected: service.rejected } });
    else {
      await service.close();
      send({ id, result: null });
      process.disconnect();
    }
  });
  send({ url: service.url, caFile: service.caFile });
}

if (require.main === module && process.send) void serveOverIpc();
