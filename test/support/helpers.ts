import { Redis } from 'ioredis';
import { Client } from 'pg';

/** Runs `fn` with these variables set in process.env (configuration read at start sees them). */
export async function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** One query on its own connection, for checks behind the API's back. */
export async function sql<T = any>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 15000,
  what = 'condition',
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs `check` (assertions) until it passes, at most `timeoutMs`, then throws its last failure:
 * for reads of the log that other sessions' transactions on a shared server briefly hold back.
 */
export async function untilPasses(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * @deprecated Waits for time, which a loaded machine makes too short or needlessly long: wait for
 * the state instead (`eventually`, `eventsCommitSafe`, a stream's `until`). Kept so that tests
 * written against it still compile.
 */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until every event of the database is readable in commit-safe order (the log's readers:
 * the export, the live stream, the dispatcher), i.e. no event belongs to a transaction as young
 * as one still running anywhere on the server. Another session's transaction on a shared server
 * holds readers back until it ends.
 */
export async function eventsCommitSafe(url: string, timeoutMs = 60_000): Promise<void> {
  await eventually(
    async () =>
      (
        await sql<{ n: number }>(
          url,
          'SELECT count(*)::int AS n FROM events WHERE transaction_id >= pg_snapshot_xmin(pg_current_snapshot())',
        )
      )[0].n === 0,
    timeoutMs,
    'every event commit-safe',
  );
}

/** Deletes a test's queue keys (`prefix:*`) from a Redis; one that is gone already has nothing to clear. */
export async function clearQueuePrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
  } catch {
    // Nothing to clear.
  } finally {
    redis.disconnect();
  }
}

/**
 * Waits until the notifications have caught up: the dispatcher has gone past every event and no
 * job waits to run (again). A push or an email not received by then will not come.
 */
export async function notificationsSettled(url: string, timeoutMs = 60_000): Promise<void> {
  await eventually(
    async () => {
      const [{ queued, behind }] = await sql<{ queued: number; behind: boolean }>(
        url,
        `SELECT (SELECT count(*)::int FROM notification_deliveries WHERE status = 'queued') AS queued,
                coalesce((SELECT global_position FROM projection_checkpoints WHERE name = 'notifications')
                           < (SELECT max(global_position) FROM events), true) AS behind`,
      );
      return queued === 0 && !behind;
    },
    timeoutMs,
    'the notifications to catch up',
  );
}
