import type { NotificationJob } from '../queue/notification-queue.js';

/** What a push service said about one device. */
export type SendResult = 'delivered' | 'gone';

/** A send that failed; `permanent` when trying again cannot help (a 400, bad credentials…). */
export class DeliveryError extends Error {
  override name = 'DeliveryError';

  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** One device of the recipient on a channel: a browser subscription or an FCM token. */
export interface Device {
  /** Stable per device, recorded per job so no retry sends to it twice. */
  key: string;
  send(): Promise<SendResult>;
  /** The push service no longer knows the device (404/410): forget it. */
  remove(): Promise<void>;
}

/** A channel's worker: the recipient's devices on that channel, each able to send the job's message. */
export interface ChannelWorker {
  devicesFor(job: NotificationJob): Promise<Device[]>;
}
