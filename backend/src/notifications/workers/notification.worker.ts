import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { NotificationStore, type DeliveryStatus, type DeviceOutcome } from '../notification-store.js';
import { PermanentJobError, type JobContext, type NotificationJob } from '../queue/notification-queue.js';
import { EmailWorker } from '../email/email.worker.js';
import { DeliveryError, type ChannelWorker, type Device } from './channel-worker.js';
import { FcmWorker } from './fcm.worker.js';
import { WebPushWorker } from './web-push.worker.js';

/** Where each attempt's outcome is counted: `alignerflow_notifications_total`, when metrics run. */
export const DELIVERY_OUTCOMES = Symbol('DELIVERY_OUTCOMES');
export interface DeliveryOutcomes {
  inc(labels: { channel: NotificationJob['channel']; outcome: string }): void;
}

/**
 * The one job handler both queue drivers run. Per attempt: record it, send to every device of the
 * recipient on the job's channel that has not had this job yet (each success is recorded before
 * anything else happens, so a retry or a crashed worker's successor never sends to it twice), then
 * record the outcome. Failures are retried by the queue until the last attempt, then recorded as
 * failed; a device the push service no longer knows is removed.
 */
@Injectable()
export class NotificationWorker {
  private readonly logger = new Logger('NotificationWorker');
  private readonly channels: Record<NotificationJob['channel'], ChannelWorker>;

  constructor(
    private readonly store: NotificationStore,
    webPush: WebPushWorker,
    fcm: FcmWorker,
    email: EmailWorker,
    @Optional() @Inject(DELIVERY_OUTCOMES) private readonly outcomes?: DeliveryOutcomes,
  ) {
    this.channels = { webpush: webPush, fcm, email };
  }

  /** The queue's handler; bound, so it can be passed around. */
  readonly handle = async (job: NotificationJob, context: JobContext): Promise<void> => {
    const finish = async (
      status: DeliveryStatus,
      note: string | null,
      unmarked: Record<string, DeviceOutcome>,
    ) => {
      await this.store.finish(job.id, status, note, unmarked);
      this.outcomes?.inc({
        channel: job.channel,
        outcome: status === 'queued' ? 'retry' : status,
      });
    };
    const previous = await this.store.beginAttempt(job, context.attempt);
    if (previous.status === 'delivered' || previous.status === 'removed') return; // done before: never twice

    const done: Record<string, DeviceOutcome> = { ...previous.devices };
    const errors: DeliveryError[] = [];
    let devices: Device[];
    try {
      devices = await this.channels[job.channel].devicesFor(job);
    } catch (error) {
      devices = [];
      errors.push(asDeliveryError(error));
    }
    const pending = devices.filter((device) => !done[device.key]);
    // With one device left, its outcome is written together with the job's: one commit fewer, and
    // the same window as marking it first.
    const markEach = pending.length > 1;
    const unmarked: Record<string, DeviceOutcome> = {};
    await Promise.all(
      pending.map(async (device) => {
        try {
          const result = await device.send();
          if (result === 'gone') await device.remove();
          const outcome: DeviceOutcome = result === 'gone' ? 'removed' : 'delivered';
          if (markEach) await this.store.markDevice(job.id, device.key, outcome);
          else unmarked[device.key] = outcome;
          done[device.key] = outcome;
        } catch (error) {
          errors.push(asDeliveryError(error));
        }
      }),
    );

    const delivered = Object.values(done).includes('delivered');
    if (errors.length > 0) {
      const message = errors[0].message;
      const final = context.attempt >= context.maxAttempts || errors.every((error) => error.permanent);
      if (!final) {
        await finish('queued', message, unmarked);
        throw new Error(message);
      }
      this.logger.warn(`${job.id}: gave up on a device after ${context.attempt} attempt(s): ${message}`);
      // Failed means the person got it nowhere; if another device has it, it is delivered (with the error noted).
      await finish(delivered ? 'delivered' : 'failed', message, unmarked);
      if (delivered) return;
      throw new PermanentJobError(message);
    }
    const note = delivered
      ? null
      : devices.length === 0
        ? `${job.username} has no ${NO_DEVICE[job.channel]}.`
        : 'The push service no longer knows the device.';
    await finish(delivered ? 'delivered' : 'removed', note, unmarked);
  };
}

const NO_DEVICE: Record<NotificationJob['channel'], string> = {
  webpush: 'push subscription',
  fcm: 'FCM token',
  email: 'email address (or turned email off)',
};

function asDeliveryError(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  // Our own database or an unexpected bug: worth another attempt.
  return new DeliveryError(error instanceof Error ? error.message : String(error), false);
}
