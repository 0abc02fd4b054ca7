import { Inject, Injectable } from '@nestjs/common';
import { notificationEmail } from '@alignerflow/domain';
import nodemailer, { type Transporter } from 'nodemailer';
import { DataSource } from 'typeorm';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../../config/notifications.config.js';
import type { NotificationJob } from '../queue/notification-queue.js';
import { DeliveryError, type ChannelWorker, type Device } from '../workers/channel-worker.js';

export const EMAIL_NOT_CONFIGURED = 'Email is not configured (SMTP_URL).';

/**
 * Email over SMTP (nodemailer). The recipient's one "device" is their address as it is when the
 * job runs: a user who cleared it, turned email off or was deleted since the job was queued gets
 * nothing. The Message-ID derives from the job id, so the one copy a worker killed right after
 * the server's 250 may send again is recognised as the same message by mail clients.
 */
@Injectable()
export class EmailWorker implements ChannelWorker {
  private readonly transport: Transporter | null;
  private readonly from: string;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(NOTIFICATIONS_CONFIG) config: NotificationsConfig,
  ) {
    this.from = config.email?.from ?? '';
    this.transport = config.email
      ? nodemailer.createTransport(config.email.smtpUrl, {
          from: config.email.from,
          // A server that does not answer must not hold a job (and its lock) for minutes.
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        })
      : null;
  }

  async devicesFor(job: NotificationJob): Promise<Device[]> {
    const transport = this.transport;
    if (!transport) throw new DeliveryError(EMAIL_NOT_CONFIGURED, true);
    const rows: { email: string | null }[] = await this.dataSource.query(
      'SELECT email FROM user_view WHERE username_key = $1 AND NOT deleted AND notify_email',
      [job.username.toLowerCase()],
    );
    const address = rows[0]?.email;
    if (!address) return [];
    const content = notificationEmail(job.message);
    return [
      {
        key: `m${address.toLowerCase()}`,
        send: async () => {
          try {
            await transport.sendMail({
              from: this.from,
              to: address,
              subject: content.subject,
              text: content.text,
              html: content.html,
              messageId: `<${job.id}@alignerflow>`,
            });
            return 'delivered';
          } catch (error) {
            throw smtpError(error);
          }
        },
        // An address is never "gone" the way a push subscription is.
        remove: async () => undefined,
      },
    ];
  }
}

/** A 5xx answer is permanent (the address or the message is refused); anything else may pass later. */
function smtpError(error: unknown): DeliveryError {
  const { responseCode, message } = error as { responseCode?: number; message?: string };
  const text = `SMTP: ${message ?? String(error)}`.slice(0, 500);
  return new DeliveryError(text, typeof responseCode === 'number' && responseCode >= 500);
}
