import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { NOTIFICATION_QUEUE_NAME } from '../../backend/src/notifications/queue/notification-queue';

/** Whether the notification queue under `prefix` in Redis holds no job to run, running or to run again. */
export async function notificationQueueIdle(url: string, prefix: string): Promise<boolean> {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue(NOTIFICATION_QUEUE_NAME, { connection, prefix });
  try {
    const counts = await queue.getJobCounts('active', 'wait', 'delayed', 'prioritized', 'waiting-children');
    return Object.values(counts).every((n) => n === 0);
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
