import { Inject, Injectable, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Agent } from 'node:https';
import webpush, { WebPushError } from 'web-push';
import { NotificationStore, type PushSubscriptionRecord } from '../notification-store.js';
import type { NotificationJob } from '../queue/notification-queue.js';
import { VapidKeys, type VapidDetails } from '../vapid-keys.js';
import { DeliveryError, type ChannelWorker, type Device, type SendResult } from './channel-worker.js';

/** An https.Agent for the push services; tests give one that trusts their local push service. */
export const PUSH_HTTPS_AGENT = Symbol('PUSH_HTTPS_AGENT');

const TTL_SECONDS = 24 * 3600;
const TIMEOUT_MS = 10_000;
const VAPID_JWT_SECONDS = 12 * 3600;

/**
 * Web push with VAPID (RFC 8292) and an aes128gcm-encrypted payload (RFC 8291) through `web-push`,
 * to every browser the recipient subscribed. The payload is the job's message as JSON:
 * {title, body, caseId, url, icon}. The Topic header (from the job id) lets a push service
 * replace a copy still pending, should a crash ever make a worker send one again.
 */
@Injectable()
export class WebPushWorker implements ChannelWorker {
  private readonly vapidHeaders = new Map<string, { value: string; publicKey: string; renewAt: number }>();

  constructor(
    private readonly store: NotificationStore,
    private readonly vapid: VapidKeys,
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
    try {
      await webpush.sendNotification({ endpoint: subscription.endpoint, keys: subscription.keys }, payload, {
        headers: { Authorization: this.authorization(subscription.endpoint, vapid) },
        TTL: TTL_SECONDS,
        topic,
        timeout: TIMEOUT_MS,
        contentEncoding: 'aes128gcm',
        ...(this.agent ? { agent: this.agent } : {}),
      });
      return 'delivered';
    } catch (error) {
      if (error instanceof WebPushError) {
        const status = error.statusCode;
        if (status === 404 || status === 410) return 'gone';
        const text = `push service answered ${status}${error.body ? `: ${String(error.body).slice(0, 200)}` : ''}`;
        throw new DeliveryError(text, status !== 429 && status < 500);
      }
      const message = error instanceof Error ? error.message : String(error);
      // Network trouble is worth another try; web-push's own checks (a malformed key) are not.
      const network = /ECONN|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|EPIPE|socket|timeout|network/i.test(message);
      throw new DeliveryError(`web push failed: ${message}`, !network);
    }
  }
}
