import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Coalesced, inKeyRounds } from './coalesced.js';
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

export interface AttemptStart {
  status: DeliveryStatus;
  devices: Record<string, DeviceOutcome>;
}

interface Outcome {
  id: string;
  status: DeliveryStatus | null;
  lastError: string | null;
  devices: Record<string, DeviceOutcome>;
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

  /** Coalesced: the worker's concurrent jobs look their recipients up in one statement. */
  subscriptionsOf(username: string): Promise<PushSubscriptionRecord[]> {
    return this.subscriptionLookups.call(username.toLowerCase());
  }

  private readonly subscriptionLookups = new Coalesced<string, PushSubscriptionRecord[]>(
    async (usernames) => {
      const rows: (PushSubscriptionRecord & { username: string })[] = await this.dataSource.query(
        'SELECT username, id::text, endpoint, keys FROM push_subscriptions WHERE username = ANY($1) ORDER BY id',
        [[...new Set(usernames)]],
      );
      const byUser = new Map<string, PushSubscriptionRecord[]>();
      for (const { username, ...subscription } of rows) {
        const list = byUser.get(username) ?? [];
        list.push(subscription);
        byUser.set(username, list);
      }
      return usernames.map((username) => byUser.get(username) ?? []);
    },
  );

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
   * the status (delivered/removed: nothing left to do) and the devices already done. Coalesced
   * with the other jobs starting now (one statement, one commit).
   */
  beginAttempt(job: NotificationJob, attempt: number): Promise<AttemptStart> {
    return this.attemptStarts.call({ job, attempt });
  }

  private readonly attemptStarts = new Coalesced<{ job: NotificationJob; attempt: number }, AttemptStart>(
    (starts) =>
      inKeyRounds(
        starts,
        (start) => start.job.id,
        async (round) => {
          const rows: (AttemptStart & { id: string })[] = await this.dataSource.query(
            `INSERT INTO notification_deliveries (id, channel, username, status, attempts, event_position, job)
             SELECT s.job->>'id', s.job->>'channel', s.job->>'username', 'queued', s.attempt,
                    (s.job->>'eventPosition')::bigint, s.job
               FROM jsonb_to_recordset($1::jsonb) AS s(job jsonb, attempt int)
             ON CONFLICT (id) DO UPDATE
               SET status = CASE WHEN notification_deliveries.status IN ('delivered', 'removed')
                                 THEN notification_deliveries.status ELSE 'queued' END,
                   attempts = CASE WHEN notification_deliveries.status IN ('delivered', 'removed')
                                   THEN notification_deliveries.attempts ELSE excluded.attempts END,
                   at = now()
             RETURNING id, status, devices`,
            [JSON.stringify(round)],
          );
          const byId = new Map(rows.map(({ id, ...start }) => [id, start]));
          return round.map((start) => byId.get(start.job.id)!);
        },
      ),
  );

  /** One device got it (or is gone): recorded at once, so no later attempt sends to it again. */
  markDevice(jobId: string, device: string, outcome: DeviceOutcome): Promise<void> {
    return this.outcomes.call({ id: jobId, status: null, lastError: null, devices: { [device]: outcome } });
  }

  /** The attempt's outcome, with the outcomes of devices not yet marked one by one. */
  finish(
    jobId: string,
    status: DeliveryStatus,
    lastError: string | null,
    devices: Record<string, DeviceOutcome> = {},
  ): Promise<void> {
    return this.outcomes.call({ id: jobId, status, lastError: lastError?.slice(0, 1000) ?? null, devices });
  }

  /** Outcomes of concurrent jobs in one UPDATE; a null status changes only the devices. */
  private readonly outcomes = new Coalesced<Outcome, void>((outcomes) =>
    inKeyRounds(
      outcomes,
      (outcome) => outcome.id,
      async (round) => {
        await this.dataSource.query(
          `UPDATE notification_deliveries d
              SET status = coalesce(o.status, d.status),
                  last_error = CASE WHEN o.status IS NULL THEN d.last_error ELSE o."lastError" END,
                  devices = d.devices || o.devices, at = now()
             FROM jsonb_to_recordset($1::jsonb) AS o(id text, status text, "lastError" text, devices jsonb)
            WHERE d.id = o.id`,
          [JSON.stringify(round)],
        );
        return round.map(() => undefined);
      },
    ),
  );

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
