import {
  Logger,
  Module,
  type DynamicModule,
  type INestApplicationContext,
  type LoggerService,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AccessLogModule } from './access-log/access-log.module.js';
import { AuditCoreModule } from './audit/audit.module.js';
import { ClockModule } from './common/clock.js';
import { APP_CONFIG, ConfigError, type AppConfig } from './config/config.js';
import { databaseModule } from './database/database.module.js';
import { runMigrations } from './database/migrations.js';
import { EventStoreModule } from './event-store/event-store.module.js';
import { closeServer, onTerminationSignal } from './health/shutdown.js';
import { Metrics } from './metrics/metrics.js';
import { serveMetrics } from './metrics/metrics-server.js';
import { MetricsCoreModule } from './metrics/metrics.module.js';
import { AtRiskModule } from './notifications/at-risk/at-risk.module.js';
import { NotificationsCoreModule } from './notifications/notifications.module.js';
import { RedisModule } from './redis/redis.module.js';
import { SecurityModule } from './security/security.module.js';
import { SessionsModule } from './sessions/sessions.module.js';

@Module({})
export class NotificationsWorkerModule {
  static register(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: NotificationsWorkerModule,
      global: true,
      imports: [
        databaseModule(config, databaseUrl),
        CqrsModule.forRoot(),
        EventEmitterModule.forRoot(),
        ClockModule,
        EventStoreModule,
        MetricsCoreModule,
        NotificationsCoreModule,
        // The followers of the log that the API process leaves to the workers.
        AuditCoreModule,
        // The scan alerts through the case's own command path, which needs these.
        RedisModule,
        SessionsModule,
        SecurityModule,
        AccessLogModule,
        AtRiskModule,
      ],
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}

/**
 * The followers of the event log, without HTTP: the notification dispatcher and workers, the
 * audit sealer, the invoice issuer (through the at-risk scan's billing module) and the at-risk scan.
 */
export async function createWorker(options: {
  config: AppConfig;
  databaseUrl: string;
  logger?: LoggerService | false;
}): Promise<INestApplicationContext> {
  await runMigrations(options.databaseUrl, undefined, options.config.migrationsDir);
  return NestFactory.createApplicationContext(
    NotificationsWorkerModule.register(options.config, options.databaseUrl),
    {
      logger: options.logger ?? new Logger(),
    },
  );
}

/**
 * `PROCESS_ROLE=worker` (`npm run start:worker`). Several may run at once: BullMQ hands each job
 * to one of them, and the dispatcher's, the sealer's and the scan's locks let one at a time
 * advance.
 */
export async function runWorkerProcess(config: AppConfig): Promise<void> {
  if (!config.databaseUrl)
    throw new ConfigError(
      'Invalid configuration: DATABASE_URL is required with PROCESS_ROLE=worker (the worker shares the API database)',
    );
  const logger = new Logger('AlignerFlow');
  const context = await createWorker({ config, databaseUrl: config.databaseUrl });
  const { port, token } = config.metrics;
  const metricsServer = port ? await serveMetrics(context.get(Metrics), { port, token }) : undefined;
  logger.log(
    `AlignerFlow notification worker is running (also the audit seals, the invoices and the at-risk scan)${port ? `; metrics on port ${port} at /metrics` : ''}.`,
  );
  // Closing the context stops the dispatcher first (ending its session releases the leader's
  // advisory lock, so another process takes over), then the queue: BullMQ takes no new job and
  // waits for the running ones; a job still running when the bound passes keeps its lock, which
  // expires, and another worker runs it again: the deliveries table makes it skip what was sent.
  onTerminationSignal({
    logger,
    timeoutMs: config.shutdown.timeoutMs,
    shutdown: async () => {
      if (metricsServer) await closeServer(metricsServer);
      await context.close();
    },
  });
}
