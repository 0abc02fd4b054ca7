import { Inject, Injectable, Logger } from '@nestjs/common';
import { ACCOUNT_TEXTS } from '@alignerflow/domain';
import { randomBytes } from 'node:crypto';
import { NotificationStore } from '../../notifications/notification-store.js';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../../config/notifications.config.js';
import {
  NOTIFICATION_QUEUE,
  type NotificationJob,
  type NotificationQueue,
} from '../../notifications/queue/notification-queue.js';
import type { UserRecord } from '../../users/users.queries.js';
import type { SessionOrigin } from '../../sessions/sessions.service.js';

/** A short name of the browser and system a user agent names, as people call them. */
export function browserName(userAgent: string | null): string {
  if (!userAgent) return 'an unknown browser';
  const browser =
    [
      [/Edg(A|iOS)?\//, 'Edge'],
      [/OPR\//, 'Opera'],
      [/Firefox\/|FxiOS\//, 'Firefox'],
      [/Chrome\/|CriOS\//, 'Chrome'],
      [/Safari\//, 'Safari'],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] ?? null;
  const system =
    [
      [/Android/, 'Android'],
      [/iPhone|iPad|iOS/, 'iOS'],
      [/Windows/, 'Windows'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/CrOS/, 'ChromeOS'],
      [/Linux/, 'Linux'],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] ?? null;
  if (browser && system) return `${browser} on ${system}`;
  return (browser ?? system ?? userAgent.slice(0, 80)) as string;
}

/**
 * "New sign-in to AlignerFlow": queued on the existing email channel (the worker sends it, with
 * retries, only while the user still has an address and email on). Nothing when email is not
 * configured; a queue that fails is logged, never a failed sign-in.
 */
@Injectable()
export class NewSignInMail {
  private readonly logger = new Logger('SignIn');

  constructor(
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
    @Inject(NOTIFICATION_QUEUE) private readonly queue: NotificationQueue,
    private readonly store: NotificationStore,
  ) {}

  async send(user: UserRecord, origin: SessionOrigin, at: Date): Promise<void> {
    if (!this.config.email || !user.email || !user.notify.email) return;
    const time = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const job: NotificationJob = {
      id: `signin-${at.getTime().toString(36)}${randomBytes(4).toString('hex')}-email-${encodeURIComponent(user.username.toLowerCase())}`,
      channel: 'email',
      username: user.username,
      message: {
        title: ACCOUNT_TEXTS.newSignInSubject,
        body: ACCOUNT_TEXTS.newSignInBody(
          time,
          origin.address ?? 'an unknown address',
          browserName(origin.userAgent),
        ),
        caseId: null,
        url: this.config.email.publicUrl,
        icon: '',
      },
      eventPosition: null,
    };
    try {
      await this.queue.enqueue([job]);
      await this.store.recordQueued([job]);
    } catch (error) {
      this.logger.warn(
        `Could not queue the new sign-in email to ${user.username}: ${(error as Error).message}`,
      );
    }
  }
}
