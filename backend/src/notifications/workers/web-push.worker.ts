import { Inject, Injectable, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { request, type Agent } from 'node:https';
import webpush from 'web-push';
import { NotificationStore, type PushSubscriptionRecord } from '../notification-store.js';
import {
  PUSH_ENDPOINT_REFUSED,
  PushEndpointGuard,
  publicOnlyLookup,
  type PushTarget,
} from '../outbound/push-endpoint-guard.js';
import type { NotificationJob } from '../queue/notification-queue.js';
import { VapidKeys, type VapidDetails } from '../vapid-keys.js';
import { DeliveryError, type ChannelWorker, type Device, type SendResult } from './channel-worker.js';

/** An https.Agent for the push services of PUSH_ALLOWED_HOSTS; tests give one that trusts their local push service. */
export const PUSH_HTTPS_AGENT = Symbol('PUSH_HTTPS_AGENT');

const TTL_SECONDS = 24 * 3600;
const TIMEOUT_MS = 10_000;
/** A push service answers with a status and at most a short text; more than this is not read. */
const MAX_ANSWER_BYTES = 64 * 1024;
const VAPID_JWT_SECONDS = 12 * 3600;

/**
 * Web push with VAPID (RFC 8292) and an aes128gcm-encrypted payload (RFC 8291), built by
 * `web-push`, to every browser the recipient subscribed. The payload is the job's message as JSON:
 * {title, body, caseId, url, icon}. The Topic header (from the job id) lets a push service
 * replace a copy still pending, should a crash ever make a worker send one again.
 *
 * Endpoints are user input: each send passes PushEndpointGuard again, and connects through its
 * pinned lookup (see there). The request is sent here rather than by web-push so that no
 * redirect is followed, the answer's body is never kept (only its status is recorded) and its
 * size and duration are bounded.
 */
@Injectable()
export class WebPushWorker implements ChannelWorker {
  private readonly vapidHeaders = new Map<string, { value: string; publicKey: string; renewAt: number }>();

  constructor(
    private readonly store: NotificationStore,
    private readonly vapid: VapidKeys,
    private readonly guard: PushEndpointGuard,
    @Optional() @Inject(PUSH_HTTPS_AGENT) private readonly agent?: Agent,
  ) {}

  async devicesFor(job: NotificationJob): Promise<Device[]> {
    const subscriptions = await this.store.subscriptionsOf(job.username);
    if (subscriptions.length === 0) return [];
    const vapid = await this.vapid.get();
    const payload = JSON.stringify(job.message);
    const topic = createHash('sha256').update(job.id).digest('base64url').slice(0, 32);
    return subscriptions.map((subscription) => ({
      key: `w${subscription.id}`,
      send: () => this.send(subscription, payload, topic, vapid),
      remove: () => this.store.removeSubscription(subscription.id),
    }));
  }

  /**
   * The VAPID Authorization header for the endpoint's push service. A VAPID JWT may be reused
   * until it expires (RFC 8292 section 2), and signing one costs more than encrypting the
   * payload, so it is made once per push service and renewed an hour before it expires.
   */
  private authorization(endpoint: string, vapid: VapidDetails): string {
    const audience = new URL(endpoint).origin;
    const now = Math.floor(Date.now() / 1000);
    const cached = this.vapidHeaders.get(audience);
    if (cached && cached.publicKey === vapid.publicKey && cached.renewAt > now) return cached.value;
    const expiresAt = now + VAPID_JWT_SECONDS;
    const { Authorization } = webpush.getVapidHeaders(
      audience,
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      expiresAt,
    );
    if (this.vapidHeaders.size > 1000) this.vapidHeaders.clear();
    this.vapidHeaders.set(audience, {
      value: Authorization,
      publicKey: vapid.publicKey,
      renewAt: expiresAt - 3600,
    });
    return Authorization;
  }

  private async send(
    subscription: PushSubscriptionRecord,
    payload: string,
    topic: string,
    vapid: VapidDetails,
  ): Promise<SendResult> {
    let target: PushTarget;
    let details: webpush.RequestDetails;
    try {
      target = this.guard.target(subscription.endpoint);
      details = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: subscription.keys },
        payload,
        {
          headers: { Authorization: this.authorization(subscription.endpoint, vapid) },
          TTL: TTL_SECONDS,
          topic,
          contentEncoding: 'aes128gcm',
        },
      );
    } catch (error) {
      // A refused endpoint or one web-push cannot encrypt for (a malformed key): no retry helps.
      throw new DeliveryError(describe(error), true);
    }
    let status: number;
    try {
      status = await this.post(target, details);
    } catch (error) {
      const refused = (error as { code?: string }).code === PUSH_ENDPOINT_REFUSED;
      const message = describe(error);
      // Network trouble is worth another try; a refused address is not.
      const network = /ECONN|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|EPIPE|socket|timeout|network/i.test(message);
      throw new DeliveryError(refused ? message : `web push failed: ${message}`, refused || !network);
    }
    if (status >= 200 && status < 300) return 'delivered';
    if (status === 404 || status === 410) return 'gone';
    // Only the status: what an endpoint answers is not ours to keep.
    const line = `push service answered ${status}`;
    if (status >= 300 && status < 400) throw new DeliveryError(`${line} (redirects are not followed)`, true);
    throw new DeliveryError(line, status !== 429 && status < 500);
  }

  /** One POST; resolves with the answer's status once its (small, discarded) body has arrived. */
  private post(target: PushTarget, details: webpush.RequestDetails): Promise<number> {
    return new Promise((resolve, reject) => {
      const { url, hostname, port, allowedByOperator } = target;
      const outgoing = request(
        {
          method: 'POST',
          hostname,
          port,
          path: `${url.pathname}${url.search}`,
          headers: details.headers,
          agent: allowedByOperator ? this.agent : this.guard.publicAgent,
          // Also on the request: a socket is only ever opened to an address this lookup checked.
          ...(allowedByOperator ? {} : { lookup: publicOnlyLookup }),
          timeout: TIMEOUT_MS,
        },
        (answer) => {
          let bytes = 0;
          answer.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes > MAX_ANSWER_BYTES) answer.destroy();
          });
          // A keep-alive socket goes back to the pool at the end: the deadline must not touch it then.
          const done = () => {
            clearTimeout(deadline);
            resolve(answer.statusCode ?? 0);
          };
          answer.on('end', done);
          answer.on('close', done);
          answer.on('error', reject);
        },
      );
      const deadline = setTimeout(
        () => outgoing.destroy(new Error('push service answer timeout')),
        TIMEOUT_MS,
      );
      outgoing.on('close', () => clearTimeout(deadline));
      outgoing.on('timeout', () => outgoing.destroy(new Error('Socket timeout')));
      outgoing.on('error', reject);
      outgoing.end(details.body);
    });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
