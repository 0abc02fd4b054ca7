import { HttpException, Inject, Injectable, Logger } from '@nestjs/common';
import { DEFAULT_NOTIFICATION } from '@alignerflow/domain';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { NotificationPlanner } from './notification-planner.js';
import { NotificationStore } from './notification-store.js';
import { NOTIFICATION_TEXTS } from './notifications.texts.js';
import {
  NOTIFICATION_QUEUE,
  type PushChannel,
  type NotificationJob,
  type NotificationQueue,
} from './queue/notification-queue.js';

/** Notifications a manager sends by hand (test, targeted): straight to the queue, one job per channel. */
@Injectable()
export class DirectNotifications {
  private readonly logger = new Logger('DirectNotifications');

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: NotificationStore,
    private readonly planner: NotificationPlanner,
    @Inject(NOTIFICATION_QUEUE) private readonly queue: NotificationQueue,
  ) {}

  /** The user as user_view spells it, if they exist and are not deleted. */
  async findUser(username: string): Promise<string | undefined> {
    const rows: { username: string }[] = await this.dataSource.query(
      'SELECT username FROM user_view WHERE username_key = $1 AND NOT deleted',
      [username.trim().toLowerCase()],
    );
    return rows[0]?.username;
  }

  async deviceCounts(username: string): Promise<Record<PushChannel, number>> {
    return (await this.store.devicesOf([username])).get(username.toLowerCase()) ?? { webpush: 0, fcm: 0 };
  }

  /** Queues the message to `username` on the channels where they have devices; returns how many devices. */
  async send(
    username: string,
    channels: PushChannel[],
    input: { title?: string; body?: string },
  ): Promise<number> {
    const counts = await this.deviceCounts(username);
    const message = this.planner.message(
      input.title?.trim() || DEFAULT_NOTIFICATION.title,
      input.body?.trim() || DEFAULT_NOTIFICATION.body,
      null,
    );
    const batch = `m${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
    const jobs: NotificationJob[] = channels
      .filter((channel) => counts[channel] > 0)
      .map((channel) => ({
        id: `${batch}-${channel}-${encodeURIComponent(username.toLowerCase())}`,
        channel,
        username,
        message,
        eventPosition: null,
      }));
    if (jobs.length === 0) return 0;
    try {
      await this.queue.enqueue(jobs);
    } catch (error) {
      this.logger.warn(`Could not queue a notification to ${username}: ${(error as Error).message}`);
      throw new HttpException({ error: NOTIFICATION_TEXTS.queueUnavailable }, 503);
    }
    await this.store.recordQueued(jobs);
    return jobs.reduce((sum, job) => sum + counts[job.channel as PushChannel], 0);
  }
}
