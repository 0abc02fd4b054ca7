import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  Inject,
  Param,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import {
  PUSH_SUBSCRIPTION_TEXTS,
  sameUsername,
  USER_TEXTS,
  type Actor,
  type QueuedAnswer,
  type VapidKeyAnswer,
} from '@alignerflow/domain';
import { CurrentActor, Public } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { requireCapability } from '../common/require-capability.js';
import { DirectNotifications } from './direct-notifications.js';
import { NotificationStore } from './notification-store.js';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../config/notifications.config.js';
import { NOTIFICATION_TEXTS } from './notifications.texts.js';
import { PushEndpointGuard, PushEndpointRefused } from './outbound/push-endpoint-guard.js';
import {
  DeliveriesQueryDto,
  FcmTokenDto,
  NotificationMessageDto,
  PushSubscribeDto,
  PushUnsubscribeDto,
} from './push.dto.js';
import type { PushChannel } from './queue/notification-queue.js';
import { VapidKeys } from './vapid-keys.js';

/** api.md's Push table. */
@Controller()
export class PushController {
  constructor(
    private readonly vapid: VapidKeys,
    private readonly store: NotificationStore,
    private readonly direct: DirectNotifications,
    private readonly endpoints: PushEndpointGuard,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
  ) {}

  @Public()
  @Get('push/vapid-public-key')
  async vapidPublicKey(): Promise<VapidKeyAnswer> {
    return { publicKey: (await this.vapid.get()).publicKey };
  }

  /**
   * One user, several devices (the newest PUSH_SUBSCRIPTIONS_PER_USER); a browser (endpoint)
   * subscribing again moves to the current user. Only endpoints PushEndpointGuard allows.
   */
  @Post('push/subscribe')
  @HttpCode(201)
  async subscribe(@CurrentActor() actor: Actor, @Body() body: PushSubscribeDto) {
    const named = body.username?.trim();
    if (named && !sameUsername(named, actor.username))
      rejectWith('forbidden', NOTIFICATION_TEXTS.subscribeSelfOnly);
    const { p256dh, auth } = body.keys;
    const publicKey = Buffer.from(p256dh, 'base64url');
    if (publicKey.length !== 65 || publicKey[0] !== 4 || Buffer.from(auth, 'base64url').length !== 16)
      rejectWith('invalid', NOTIFICATION_TEXTS.invalidKeys);
    try {
      await this.endpoints.check(body.endpoint);
    } catch (error) {
      if (!(error instanceof PushEndpointRefused) && !isLookupFailure(error)) throw error;
      rejectWith('invalid', PUSH_SUBSCRIPTION_TEXTS.endpointNotAllowed);
    }
    await this.store.saveSubscription(actor.username, body.endpoint, { p256dh, auth });
    return { username: actor.username, endpoint: body.endpoint };
  }

  /** Beyond api.md: the client calls it when signing out, so a shared browser stops showing that user's alerts. */
  @Post('push/unsubscribe')
  @HttpCode(204)
  async unsubscribe(@CurrentActor() actor: Actor, @Body() body: PushUnsubscribeDto): Promise<void> {
    await this.store.removeOwnSubscription(actor.username, body.endpoint);
  }

  @Put('push/fcm-token')
  @HttpCode(204)
  async fcmToken(@CurrentActor() actor: Actor, @Body() body: FcmTokenDto): Promise<void> {
    const token = body.token.trim();
    if (!token) rejectWith('invalid', NOTIFICATION_TEXTS.tokenRequired);
    await this.store.saveFcmToken(actor.username, token);
  }

  /** To the signed-in manager's own devices; `queued` counts the devices. */
  @Post('push/test')
  @HttpCode(202)
  async test(@CurrentActor() actor: Actor, @Body() body: NotificationMessageDto): Promise<QueuedAnswer> {
    requireCapability(actor, 'sendNotifications', NOTIFICATION_TEXTS.managersOnly);
    const channels: PushChannel[] = this.config.fcm ? ['webpush', 'fcm'] : ['webpush'];
    return { queued: await this.direct.send(actor.username, channels, body) };
  }

  @Post('push/send/:username')
  @HttpCode(202)
  async sendWebPush(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Body() body: NotificationMessageDto,
  ): Promise<QueuedAnswer> {
    return { queued: await this.sendTo(actor, username, body, 'webpush') };
  }

  @Post('fcm/send/:username')
  @HttpCode(202)
  async sendFcm(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Body() body: NotificationMessageDto,
  ): Promise<QueuedAnswer> {
    return { queued: await this.sendTo(actor, username, body, 'fcm') };
  }

  /** Recent delivery outcomes, newest first. */
  @Get('notifications/deliveries')
  async deliveries(@CurrentActor() actor: Actor, @Query() query: DeliveriesQueryDto) {
    requireCapability(actor, 'sendNotifications', NOTIFICATION_TEXTS.managersOnlyDeliveries);
    return this.store.recent(Math.min(query.limit ?? 100, 500));
  }

  private async sendTo(actor: Actor, username: string, body: NotificationMessageDto, channel: PushChannel) {
    requireCapability(actor, 'sendNotifications', NOTIFICATION_TEXTS.managersOnly);
    if (!body.body?.trim()) rejectWith('invalid', NOTIFICATION_TEXTS.bodyRequired);
    if (channel === 'fcm' && !this.config.fcm)
      throw new HttpException({ error: NOTIFICATION_TEXTS.fcmNotConfigured }, 503);
    const user = await this.direct.findUser(username);
    if (!user) rejectWith('not_found', USER_TEXTS.notFound);
    const queued = await this.direct.send(user, [channel], body);
    if (queued === 0)
      rejectWith(
        'conflict',
        channel === 'fcm' ? NOTIFICATION_TEXTS.noFcmToken(user) : NOTIFICATION_TEXTS.noSubscription(user),
      );
    return queued;
  }
}

/** A name that does not resolve has no public address either. */
function isLookupFailure(error: unknown): boolean {
  return /^(ENOTFOUND|ENODATA|EAI_[A-Z]+)$/.test((error as { code?: string }).code ?? '');
}
