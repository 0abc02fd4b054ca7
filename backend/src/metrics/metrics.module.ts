import { Global, Module } from '@nestjs/common';
import { COMMAND_COUNTS } from '../cases/commands/command-counts.js';
import { commandCounts, CommandMetrics } from './command-metrics.js';
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
    // The case route table counts its commands here without importing metrics/.
    { provide: COMMAND_COUNTS, useFactory: commandCounts, inject: [Metrics] },
  ],
  exports: [Metrics, DELIVERY_OUTCOMES, COMMAND_COUNTS],
})
export class MetricsCoreModule {}

/** The series plus GET /api/metrics and the command counts of the API. */
@Module({
  imports: [MetricsCoreModule],
  controllers: [MetricsController],
  providers: [CommandMetrics],
})
export class MetricsModule {}
