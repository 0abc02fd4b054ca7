import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { CommandMetrics } from './command-metrics.js';
import { MetricsController } from './metrics.controller.js';
import { DELIVERY_OUTCOMES } from '../notifications/workers/notification.worker.js';
import { Metrics } from './metrics.js';

/** This process's series, for any module to count into; what a worker process runs. */
@Global()
@Module({
  providers: [
    Metrics,
    // The notification worker counts here without importing metrics/ (which reads its queue).
    {
      provide: DELIVERY_OUTCOMES,
      useFactory: (metrics: Metrics) => metrics.notifications,
      inject: [Metrics],
    },
  ],
  exports: [Metrics, DELIVERY_OUTCOMES],
})
export class MetricsCoreModule {}

/** The series plus GET /api/metrics and the command counts of the API. */
@Module({
  imports: [MetricsCoreModule],
  controllers: [MetricsController],
  providers: [CommandMetrics, { provide: APP_INTERCEPTOR, useExisting: CommandMetrics }],
})
export class MetricsModule {}
