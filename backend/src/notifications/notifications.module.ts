import { Logger, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DirectNotifications } from './direct-notifications.js';
import { NotificationDispatcher } from './notification-dispatcher.js';
import { NotificationPlanner } from './notification-planner.js';
import { NotificationStore } from './notification-store.js';
import {
  MAX_ATTEMPTS,
  NOTIFICATIONS_CONFIG,
  type NotificationsConfig,
} from '../config/notifications.config.js';
import { NotificationsRuntime } from './notifications-runtime.js';
import { PushEndpointGuard } from './outbound/push-endpoint-guard.js';
import { PushController } from './push.controller.js';
import { BullMqDriver } from './queue/bullmq.driver.js';
import { InProcessDriver } from './queue/in-process.driver.js';
import { NOTIFICATION_QUEUE, type NotificationQueue } from './queue/notification-queue.js';
import { VapidKeys } from './vapid-keys.js';
import { EmailWorker } from './email/email.worker.js';
import { FcmWorker } from './workers/fcm.worker.js';
import { NotificationWorker } from './workers/notification.worker.js';
import { WebPushWorker } from './workers/web-push.worker.js';

/** With REDIS_URL: BullMQ, shared by every process; without: the in-process driver. Same worker either way. */
export function createNotificationQueue(config: NotificationsConfig): NotificationQueue {
  const policy = { attempts: MAX_ATTEMPTS, backoffMs: config.backoffMs };
  if (!config.redisUrl) return new InProcessDriver(policy);
  const logger = new Logger('NotificationQueue');
  let lastLog = 0;
  return new BullMqDriver({
    redisUrl: config.redisUrl,
    prefix: config.queuePrefix,
    policy,
    lockMs: config.lockMs,
    onError: (error) => {
      // ioredis reports every failed reconnect while Redis is away: once a minute is enough.
      if (Date.now() - lastLog < 60_000) return;
      lastLog = Date.now();
      logger.warn(`Redis: ${error.message}`);
    },
  });
}

const PROVIDERS = [
  {
    provide: NOTIFICATIONS_CONFIG,
    useFactory: (config: AppConfig) => config.notifications,
    inject: [APP_CONFIG],
  },
  { provide: NOTIFICATION_QUEUE, useFactory: createNotificationQueue, inject: [NOTIFICATIONS_CONFIG] },
  NotificationStore,
  VapidKeys,
  PushEndpointGuard,
  WebPushWorker,
  FcmWorker,
  EmailWorker,
  NotificationWorker,
  NotificationPlanner,
  NotificationDispatcher,
  DirectNotifications,
  NotificationsRuntime,
];

/** Dispatcher, queue and workers, without HTTP: what a `PROCESS_ROLE=worker` process runs. */
@Module({ providers: PROVIDERS, exports: PROVIDERS })
export class NotificationsCoreModule {}

/** Everything of notifications, with the endpoints of api.md's Push table. */
@Module({ imports: [NotificationsCoreModule], controllers: [PushController] })
export class NotificationsModule {}
