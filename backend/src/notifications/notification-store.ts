import { Injectable } from '@nestjs/common';
import { PUSH_SUBSCRIPTIONS_PER_USER, USER_LIMITS } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { Coalesced, inKeyRounds } from './coalesced.js';
import type { Channel, NotificationJob, PushChannel } from './queue/notification-queue.js';

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

/** A user's deletion: the user's stream version of the UserDeleted event. */
export interface UserDeletion {
  usernameKey: string;
  version: number;
}

/**
 * The notifications' own tables (migrations/004_notifications.sql): where to push, and what
 * became of every job. Usernames are stored lower-cased, as user_view's key. Each device keeps
 * the user's version when it was registered (migrations/013): a deletion removes the devices
 * registered before it, and a deleted user's devices are never looked up.
 */
@Injectable()
export class NotificationStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Upsert by endpoint: a browser subscribing again, maybe for another user, keeps one row. Past
   * PUSH_SUBSCRIPTIONS_PER_USER the user's least recently (re)subscribed browsers are dropped.
   * Nothing is stored for a user deleted meanwhile.
   */
  async saveSubscription(
    username: string,
    endpoint: string,
    keys: { p256dh: string; auth: string },
  ): Promise<void> {
    const usernameKey = username.toLowerCase();
    await this.dataSource.transaction(async (manager) => {
      // One user's subscribes queue here, so the cap holds however many arrive at once; the clock
      // is read under the lock, so the order of updated_at is the order they were saved in.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('push_subscriptions:' || $1))`, [
        usernameKey,
      ]);
      await manager.query(
        `INSERT INTO push_subscriptions (username, endpoint, keys, user_version, created_at, updated_at)
         SELECT $1, $2, $3, coalesce(u.version, 0), clock_timestamp(), clock_timestamp()
           FROM (VALUES (1)) AS one LEFT JOIN user_view u ON u.username_key = $1
          WHERE u.deleted IS NOT TRUE
         ON CONFLICT (endpoint) DO UPDATE SET username = excluded.username, keys = excluded.keys,
           user_version = excluded.user_version, updated_at = excluded.updated_at`,
        [usernameKey, endpoint, JSON.stringify(keys)],
      );
      await manager.query(
        `DELETE FROM push_subscriptions WHERE id IN (
           SELECT id FROM push_subscriptions WHERE username = $1
            ORDER BY updated_at DESC, id DESC OFFSET $2)`,
        [usernameKey, PUSH_SUBSCRIPTIONS_PER_USER],
      );
    });
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
        `SELECT s.username, s.id::text, s.endpoint, s.keys FROM push_subscriptions s
          WHERE s.username = ANY($1)
            AND NOT EXISTS (SELECT 1 FROM user_view u WHERE u.username_key = s.username AND u.deleted)
          ORDER BY s.id`,
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
      `INSERT INTO fcm_tokens (username, token, user_version)
       SELECT $1, $2, coalesce(u.version, 0)
         FROM (VALUES (1)) AS one LEFT JOIN user_view u ON u.username_key = $1
        WHERE u.deleted IS NOT TRUE
       ON CONFLICT (token) DO UPDATE SET username = excluded.username, user_version = excluded.user_version,
         updated_at = now()`,
      [username.toLowerCase(), token],
    );
    // At most USER_LIMITS.fcmTokensPerUser (api.md, "Patient data"): the newest replaces the oldest.
    await this.dataSource.query(
      `DELETE FROM fcm_tokens WHERE id IN (
         SELECT id FROM fcm_tokens WHERE username = $1 ORDER BY updated_at DESC, id DESC OFFSET $2)`,
      [username.toLowerCase(), USER_LIMITS.fcmTokensPerUser],
    );
  }

  async fcmTokensOf(username: string): Promise<FcmTokenRecord[]> {
    return this.dataSource.query(
      `SELECT f.id::text, f.token FROM fcm_tokens f
        WHERE f.username = $1
          AND NOT EXISTS (SELECT 1 FROM user_view u WHERE u.username_key = f.username AND u.deleted)
        ORDER BY f.id`,
      [username.toLowerCase()],
    );
  }

  /**
   * Removes the push subscriptions and FCM tokens the deleted users registered before their
   * deletion; those of a user created again since then stay. Repeating it changes nothing.
   */
  async forgetDeletedUsers(deletions: UserDeletion[], sql: Sql = this.dataSource): Promise<void> {
    if (deletions.length === 0) return;
    await sql.query(
      `WITH deleted AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS d("usernameKey" text, version int)
       ), subscriptions AS (
         DELETE FROM push_subscriptions s USING deleted d
          WHERE s.username = d."usernameKey" AND s.user_version < d.version
       )
       DELETE FROM fcm_tokens f USING deleted d
        WHERE f.username = d."usernameKey" AND f.user_version < d.version`,
      [JSON.stringify(deletions)],
    );
  }

  async removeFcmToken(id: string): Promise<void> {
    await this.dataSource.query('DELETE FROM fcm_tokens WHERE id = $1', [id]);
  }

  /** Device counts per channel of the given users (lower-cased keys). */
  async devicesOf(usernames: string[]): Promise<Map<string, Record<PushChannel, number>>> {
    const keys = [...new Set(usernames.map((name) => name.toLowerCase()))];
    const result = new Map<string, Record<PushChannel, number>>();
    if (keys.length === 0) return result;
    const rows: { username: string; channel: PushChannel; n: number }[] = await this.dataSource.query(
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
