import { Inject, Injectable } from '@nestjs/common';
import { readdirSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { migrationsDir } from '../database/migrations.js';
import { withTimeout } from '../notifications/queue/notification-queue.js';
import { RedisConnection } from '../redis/redis.module.js';
import { ProcessLifecycle } from './process-lifecycle.js';

/** A probe must answer even when the pool is exhausted or the server hangs. */
const CHECK_TIMEOUT_MS = 1000;

export interface Readiness {
  status: 'ready' | 'not ready';
  /** Why not, in words an operator acts on; absent when ready. */
  reason?: string;
  draining: boolean;
  /** The dependency checks; not made while draining (the process is on its way out anyway). */
  db?: 'up' | 'down';
  redis?: 'up' | 'down' | 'disabled';
  migrations?: 'applied' | 'pending' | 'unknown';
}

/**
 * Ready = not draining, the database answers, Redis answers when configured, and every migration
 * this code ships is recorded as applied (the process applies them at start; this catches a
 * database restored or swapped under it).
 */
@Injectable()
export class ReadinessService {
  /** Applied migrations are never taken back: once all were seen, they are not asked again. */
  private migrationsApplied = false;
  private shipped: string[] | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redisConnection: RedisConnection,
    private readonly lifecycle: ProcessLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async check(): Promise<Readiness> {
    const draining = this.lifecycle.draining;
    if (draining) return { status: 'not ready', reason: 'draining', draining };
    const [db, redis, migrations] = await Promise.all([
      withTimeout(this.dataSource.query('SELECT 1'), CHECK_TIMEOUT_MS, 'The database').then(
        () => 'up' as const,
        () => 'down' as const,
      ),
      this.redisConnection.ping(),
      this.migrations(),
    ]);
    const reason =
      db === 'down'
        ? 'database unreachable'
        : redis === 'down'
          ? 'redis unreachable'
          : migrations !== 'applied'
            ? 'migrations not applied'
            : undefined;
    return {
      status: reason ? 'not ready' : 'ready',
      ...(reason ? { reason } : {}),
      draining,
      db,
      redis,
      migrations,
    };
  }

  private async migrations(): Promise<NonNullable<Readiness['migrations']>> {
    if (this.migrationsApplied) return 'applied';
    try {
      this.shipped ??= readdirSync(migrationsDir(this.config.migrationsDir)).filter((name) =>
        name.endsWith('.sql'),
      );
      const rows = await withTimeout(
        this.dataSource.query<{ name: string }[]>('SELECT name FROM schema_migrations'),
        CHECK_TIMEOUT_MS,
        'The database',
      );
      const applied = new Set(rows.map((row) => row.name));
      this.migrationsApplied = this.shipped.every((name) => applied.has(name));
      return this.migrationsApplied ? 'applied' : 'pending';
    } catch {
      return 'unknown';
    }
  }
}
