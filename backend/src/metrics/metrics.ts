import { Inject, Injectable, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { APPEND_FLUSHED, type AppendFlush } from '../event-store/group-commit.js';
import { LiveStreamService } from '../live/live-stream.service.js';
import { LogTailer } from '../live/log-tailer.service.js';
import { DISPATCHER_CHECKPOINT } from '../notifications/notification-dispatcher.js';
import { NOTIFICATION_QUEUE, type NotificationQueue } from '../notifications/queue/notification-queue.js';

export type CommandOutcome = 'ok' | 'rejected' | 'conflict' | 'error';

/** From a lone flush on an idle server to one held up by a stall, around the half-load target (docs/performance.md). */
const APPEND_TIME_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * Every series this process exposes, in its own registry (one per application, so that several
 * applications in one process, as in the tests, never mix their counts). Gauges that describe
 * other services' state read it when scraped, so those services need no hooks of their own.
 */
@Injectable()
export class Metrics implements OnModuleInit, OnModuleDestroy {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP answers by method, route pattern and status, from the first byte read to the last byte sent.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly commands = new Counter({
    name: 'alignerflow_commands_total',
    help: 'Case commands executed, by command type and outcome (ok, rejected, conflict, error).',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly appendBatchSize = new Histogram({
    name: 'alignerflow_append_batch_size',
    help: 'Commands appended together in one flush of the event store.',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128],
    registers: [this.registry],
  });

  readonly appendFlushSeconds = new Histogram({
    name: 'alignerflow_append_flush_seconds',
    help: 'One flush of the event store: its appends sealed, a pooled connection, the statement and its commit, the answer decoded.',
    buckets: APPEND_TIME_BUCKETS,
    registers: [this.registry],
  });

  readonly appendWaitSeconds = new Histogram({
    name: 'alignerflow_append_wait_seconds',
    help: 'Each append, from its arrival to the start of the flush that carried it (the flush before it in flight).',
    buckets: APPEND_TIME_BUCKETS,
    registers: [this.registry],
  });

  readonly notifications = new Counter({
    name: 'alignerflow_notifications_total',
    help: 'Notification job attempts by channel and outcome (delivered, removed, failed, retry).',
    labelNames: ['channel', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly loginFailures = new Counter({
    name: 'alignerflow_login_failures_total',
    help: 'Sign-ins refused for a wrong username or password.',
    registers: [this.registry],
  });

  readonly loginThrottles = new Counter({
    name: 'alignerflow_login_throttles_total',
    help: 'Sign-ins answered 429 because the username and address failed too often.',
    registers: [this.registry],
  });

  constructor(
    private readonly moduleRef: ModuleRef,
    @Optional() @Inject(DataSource) private readonly database?: DataSource,
  ) {
    collectDefaultMetrics({ register: this.registry });
    const optional = <T>(token: unknown) => find<T>(moduleRef, token);

    new Gauge({
      name: 'alignerflow_sse_clients',
      help: 'Live event streams open on this process.',
      registers: [this.registry],
      collect() {
        this.set(optional<LiveStreamService>(LiveStreamService)?.clientCount ?? 0);
      },
    });

    const lagsFrom = (live: string | undefined) => this.lags(live);
    new Gauge({
      name: 'alignerflow_projection_lag_events',
      help: 'Log positions between the head of the event log and where each consumer stands: live (this process), notifications (dispatcher), audit (sealer).',
      labelNames: ['projection'] as const,
      registers: [this.registry],
      async collect() {
        const lags = await lagsFrom(optional<LogTailer>(LogTailer)?.position?.position);
        for (const [projection, lag] of Object.entries(lags)) this.set({ projection }, lag);
      },
    });

    new Gauge({
      name: 'alignerflow_notification_queue_depth',
      help: 'Notification jobs waiting or delayed for a retry (the whole shared queue with Redis).',
      registers: [this.registry],
      async collect() {
        const queue = optional<NotificationQueue>(NOTIFICATION_QUEUE);
        if (queue) this.set(await queue.depth().catch(() => Number.NaN));
      },
    });
  }

  private readonly flushed = ({ appends, seconds, waitedSeconds }: AppendFlush) => {
    this.appendBatchSize.observe(appends);
    this.appendFlushSeconds.observe(seconds);
    for (const waited of waitedSeconds) this.appendWaitSeconds.observe(waited);
  };

  onModuleInit(): void {
    find<EventEmitter2>(this.moduleRef, EventEmitter2)?.on(APPEND_FLUSHED, this.flushed);
  }

  onModuleDestroy(): void {
    find<EventEmitter2>(this.moduleRef, EventEmitter2)?.off(APPEND_FLUSHED, this.flushed);
  }

  /** One command's end, as the request that ran it ended. */
  countCommand(type: string, outcome: CommandOutcome): void {
    this.commands.inc({ type, outcome });
  }

  /** The Prometheus text of every series. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private async lags(livePosition: string | undefined): Promise<Record<string, number>> {
    if (!this.database?.isInitialized) return {};
    // The sealer resumes after its last seal; the dispatcher after its checkpoint.
    const [row] = (await this.database.query(
      `SELECT (SELECT coalesce(max(global_position), 0) FROM events)::text AS head,
              (SELECT global_position FROM projection_checkpoints WHERE name = $1)::text AS notifications,
              (SELECT global_position FROM audit_chain ORDER BY seq DESC LIMIT 1)::text AS audit`,
      [DISPATCHER_CHECKPOINT],
    )) as { head: string; notifications: string | null; audit: string | null }[];
    const head = BigInt(row.head);
    const behind = (position: string | null | undefined) => {
      const lag = head - BigInt(position ?? 0);
      return Number(lag > 0n ? lag : 0n);
    };
    const lags: Record<string, number> = {
      notifications: behind(row.notifications),
      audit: behind(row.audit),
    };
    if (find(this.moduleRef, LogTailer)) lags.live = behind(livePosition);
    return lags;
  }
}

/** A provider of another module, or undefined when this process does not run it (a worker has no live stream). */
function find<T>(moduleRef: ModuleRef, token: unknown): T | undefined {
  try {
    return moduleRef.get(token as never, { strict: false }) as T;
  } catch {
    return undefined;
  }
}
