import { Inject, Injectable } from '@nestjs/common';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../../config/notifications.config.js';
import { NotificationStore } from '../notification-store.js';
import type { NotificationJob } from '../queue/notification-queue.js';
import { DeliveryError, type ChannelWorker, type Device } from './channel-worker.js';
import { FcmClient } from './fcm-client.js';

export const FCM_NOT_CONFIGURED = 'FCM is not configured.';

/** FCM HTTP v1 to every registration token of the recipient. */
@Injectable()
export class FcmWorker implements ChannelWorker {
  private readonly client: FcmClient | null;

  constructor(
    private readonly store: NotificationStore,
    @Inject(NOTIFICATIONS_CONFIG) config: NotificationsConfig,
  ) {
    this.client = config.fcm && new FcmClient(config.fcm);
  }

  get configured(): boolean {
    return this.client !== null;
  }

  async devicesFor(job: NotificationJob): Promise<Device[]> {
    const client = this.client;
    if (!client) throw new DeliveryError(FCM_NOT_CONFIGURED, true);
    const tokens = await this.store.fcmTokensOf(job.username);
    return tokens.map((token) => ({
      key: `f${token.id}`,
      send: () => client.send(token.token, job.message),
      remove: () => this.store.removeFcmToken(token.id),
    }));
  }
}
