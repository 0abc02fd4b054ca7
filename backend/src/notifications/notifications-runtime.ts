import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { NotificationDispatcher } from './notification-dispatcher.js';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../config/notifications.config.js';
import { NOTIFICATION_QUEUE, type NotificationQueue } from './queue/notification-queue.js';
import { NotificationWorker } from './workers/notification.worker.js';

/**
 * Starts what this process's role runs: the dispatcher and the workers in `worker` and `all`
 * (the dispatcher's advisory lock lets one process at a time advance it), nothing in `api`, which
 * only answers requests (and queues direct notifications); stops them before the database
 * connections close.
 */
@Injectable()
export class NotificationsRuntime implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Notifications');

  constructor(
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
    @Inject(NOTIFICATION_QUEUE) private readonly queue: NotificationQueue,
    private readonly dispatcher: NotificationDispatcher,
    private readonly worker: NotificationWorker,
  ) {}

  get runsWorkers(): boolean {
    return this.config.processRole !== 'api';
  }

  onApplicationBootstrap(): void {
    if (!this.runsWorkers) {
      this.logger.log(`Notifications: ${this.queue.driver} queue; dispatched and sent by the workers.`);
      return;
    }
    this.queue.process(this.worker.handle, { concurrency: this.config.concurrency });
    this.dispatcher.start();
    this.logger.log(
      `Notifications: ${this.queue.driver} queue; workers (concurrency ${this.config.concurrency}) and dispatcher.`,
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.dispatcher.stop();
    await this.queue.close();
  }
}
