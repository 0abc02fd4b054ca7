import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Channel, NotificationJob } from './queue/notification-queue.js';

export type DeliveryStatus = 'queued' | 'delivered' | 'failed' | 'removed';
export type DeviceOutcome = 'delivered' | 'removed';

export interface Delivery {
  id: string;
  channel: Channel;
  username: string;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  at: string;
}

export interface PushSubscriptionRecord {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface FcmTokenRecord {
  id: string;
  token: string;
}

/** Anything that runs SQL: TypeORM (rows) or a pg Client ({ rows }). */
export interface Sql {
  query(text: string, params?: unknown[]): Promise<unknown>;
}

export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * The notifications' own tables (migrations/004_notifications.sql): where to push, and what
 * became of every job. Usernames are stored lower-cased, as user_view's key.
 */
@Injectable()
export class NotificationStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Upsert by endpoint: a browser subscribing again, maybe for another user, keeps one row. */
  async saveSubscription(
    username: string,
    endpoint: string,
    keys: { p256dh: string; auth: string },
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO push_subscriptions (username, endpoint, keys) VALUES ($1, $2, $3)
       ON CONFLICT (endpoint) DO UPDATE SET username = excluded.username, keys = excluded.keys, updated_at = now()`,
      [username.toLowerCase(), endpoint, JSON.stringify(keys)],
    );
  }

  /** Only the user's own: signing out on a shared browser stops that user's notifications there. */
  async removeOwnSubscription(username: string, endpoint: string): Promise<void> {
    await this.dataSource.query('DELETE FROM push_subscriptions WHERE endpoint = $1 AND username = $2', [
      endpoint,
      username.toLowerCase(),
    ]);
  }

  async subscriptionsOf(username: string): Promise<PushSubscriptionRecord[]> {
    const rows: { id: string; endpoint: string; keys: { p256dh: string; auth: string } }[] =
      await this.dataSource.query(
        'SELECT id::text, endpoint, keys FROM push_subscriptions WHERE username = $1 ORDER BY id',
        [username.toLowerCase()],
      );
    return rows;
  }

  async removeSubscription(id: string): Promise<void> {
    await this.dataSource.query('DELETE FROM push_subscriptions WHERE id = $1', [id]);
  }

  async saveFcmToken(username: string, token: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO fcm_tokens (username, token) VALUES ($1, $2)
       ON CONFLICT (token) DO UPDATE SET username = excluded.username, updated_at = now()`,
      [username.toLowerCase(), token],
    );
  }

  async fcmTokensOf(username: string): Promise<FcmTokenRecord[]> {
    return this.dataSource.query('SELECT id::text, token FROM fcm_tokens WHERE username = $1 ORDER BY id', [
      username.toLowerCase(),
    ]);
  }

  async removeFcmToken(id: string): Promise<void> {
    await this.dataSource.query('DELETE FROM fcm_tokens WHERE id = $1', [id]);
  }

  /** Device counts per channel of the given users (lower-cased keys). */
  async devicesOf(usernames: string[]): Promise<Map<string, Record<Channel, number>>> {
    const keys = [...new Set(usernames.map((name) => name.toLowerCase()))];
    const result = new Map<string, Record<Channel, number>>();
    if (keys.length === 0) return result;
    const rows: { username: string; channel: Channel; n: number }[] = await this.dataSource.query(
      `SELECT username, 'webpush' AS channel, count(*)::int AS n FROM push_subscriptions
        WHERE username = ANY($1) GROUP BY username
       UNION ALL
       SELECT username, 'fcm' AS channel, count(*)::int AS n FROM fcm_tokens
        WHERE username = ANY($1) GROUP BY username`,
      [keys],
    );
    for (const row of rows) {
      const counts = result.get(row.username) ?? { webpush: 0, fcm: 0 };
      counts[row.channel] = row.n;
      result.set(row.username, counts);
    }
    return result;
  }

  /**
   * Records freshly queued jobs. Never overwrites: a worker may already have recorded an outcome.
   * Runs on the caller's connection so the dispatcher can commit it with its checkpoint.
   */
  async recordQueued(jobs: NotificationJob[], sql: Sql = this.dataSource): Promise<void> {
    for (let start = 0; start < jobs.length; start += 500) {
      const chunk = jobs.slice(start, start + 500);
      await sql.query(
        `INSERT INTO notification_deliveries (id, channel, username, status, event_position, job)
         SELECT j->>'id', j->>'channel', j->>'username', 'queued', (j->>'eventPosition')::bigint, j
           FROM jsonb_array_elements($1::jsonb) AS j
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(chunk)],
      );
    }
  }

  /**
   * A worker starts an attempt: the row exists from here on. Returns what earlier attempts left:
   * the status (delivered/removed: nothing left to do) and the devices already done.
   */
  async beginAttempt(
    job: NotificationJob,
    attempt: number,
  ): Promise<{ status: DeliveryStatus; devices: Record<string, DeviceOutcome> }> {
    const [row]: { status: DeliveryStatus; devices: Record<string, DeviceOutcome> }[] =
      await this.dataSource.query(
        `INSERT INTO notification_deliveries (id, channel, username, status, attempts, event_position, job)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6)
       ON CONFLICT (id) DO UPDATE
         SET status = CASE WHEN notification_deliveries.status IN ('delivered', 'removed')
                           THEN notification_deliveries.status ELSE 'queued' END,
             attempts = CASE WHEN notification_deliveries.status IN ('delivered', 'removed')
                             THEN notification_deliveries.attempts ELSE excluded.attempts END,
             at = now()
       RETURNING status, devices`,
        [job.id, job.channel, job.username, attempt, job.eventPosition, JSON.stringify(job)],
      );
    return row;
  }

  /** One device got it (or is gone): recorded at once, so no later attempt sends to it again. */
  async markDevice(jobId: string, device: string, outcome: DeviceOutcome): Promise<void> {
    await this.dataSource.query(
      `UPDATE notification_deliveries SET devices = devices || jsonb_build_object($2::text, $3::text), at = now()
        WHERE id = $1`,
      [jobId, device, outcome],
    );
  }

  /** The attempt's outcome, with the outcomes of devices not yet marked one by one. */
  async finish(
    jobId: string,
    status: DeliveryStatus,
    lastError: string | null,
    devices: Record<string, DeviceOutcome> = {},
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE notification_deliveries SET status = $2, last_error = $3, devices = devices || $4::jsonb, at = now()
        WHERE id = $1`,
      [jobId, status, lastError?.slice(0, 1000) ?? null, JSON.stringify(devices)],
    );
  }

  async recent(limit: number): Promise<Delivery[]> {
    const rows: {
      id: string;
      channel: Channel;
      username: string;
      status: DeliveryStatus;
      attempts: number;
      last_error: string | null;
      at: Date;
    }[] = await this.dataSource.query(
      `SELECT id, channel, username, status, attempts, last_error, at FROM notification_deliveries
        ORDER BY at DESC, id LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      username: row.username,
      status: row.status,
      attempts: row.attempts,
      lastError: row.last_error,
      at: new Date(row.at).toISOString(),
    }));
  }

  /** Jobs recorded as queued but untouched for `olderThanMs`: a queue may have lost them. */
  async staleQueued(olderThanMs: number, limit: number): Promise<NotificationJob[]> {
    const rows: { job: NotificationJob }[] = await this.dataSource.query(
      `SELECT job FROM notification_deliveries
        WHERE status = 'queued' AND at < now() - make_interval(secs => $1::double precision / 1000)
        ORDER BY at LIMIT $2`,
      [olderThanMs, limit],
    );
    return rows.map((row) => row.job);
  }

  /** Outcomes are kept for 90 days; queued ones until they have one. */
  async prune(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM notification_deliveries WHERE status <> 'queued' AND at < now() - interval '90 days'`,
    );
  }
}
