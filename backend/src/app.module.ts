import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AccessLogModule } from './access-log/access-log.module.js';
import { AiModule } from './ai/ai.module.js';
import { AuditModule } from './audit/audit.module.js';
import { AuthModule } from './auth/auth.module.js';
import { ClockModule } from './common/clock.js';
import { BackupModule } from './backup/backup.module.js';
import { BillingModule } from './billing/billing.module.js';
import { CasesModule } from './cases/cases.module.js';
import { HttpExceptionFilter } from './common/http-exception.filter.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { databaseModule } from './database/database.module.js';
import { EventStoreModule } from './event-store/event-store.module.js';
import { PatientDataModule } from './patient-data/patient-data.module.js';
import { FilesModule } from './files/files.module.js';
import { ClientConfigController } from './config/client-config.controller.js';
import { HealthModule } from './health/health.module.js';
import { LiveModule } from './live/live.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { AtRiskModule } from './notifications/at-risk/at-risk.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { OpenApiModule } from './openapi/openapi.module.js';
import { RedisModule } from './redis/redis.module.js';
import { ReportsModule } from './reports/reports.module.js';
import { MaterialsModule } from './materials/materials.module.js';
import { SecurityModule } from './security/security.module.js';
import { SessionsModule } from './sessions/sessions.module.js';
import { SeedModule } from './seed/seed.module.js';
import { UsersModule } from './users/users.module.js';
import { WorkQueueModule } from './work-queue/work-queue.module.js';

@Module({})
export class AppModule {
  static register(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        databaseModule(config, databaseUrl),
        CqrsModule.forRoot(),
        EventEmitterModule.forRoot(),
        EventStoreModule,
        RedisModule,
        ClockModule,
        SessionsModule,
        SecurityModule,
        UsersModule,
        AuthModule,
        CasesModule,
        AccessLogModule,
        WorkQueueModule,
        HealthModule,
        LiveModule,
        NotificationsModule,
        AtRiskModule,
        FilesModule,
        AiModule,
        BackupModule,
        AuditModule,
        ReportsModule,
        MaterialsModule,
        BillingModule,
        PatientDataModule,
        MetricsModule,
        OpenApiModule,
        SeedModule,
      ],
      controllers: [ClientConfigController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
      ],
      exports: [APP_CONFIG],
    };
  }
}
