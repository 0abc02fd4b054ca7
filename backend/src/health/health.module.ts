import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { ProcessLifecycle } from './process-lifecycle.js';
import { ReadinessService } from './readiness.service.js';

@Module({
  controllers: [HealthController],
  providers: [ProcessLifecycle, ReadinessService],
  exports: [ProcessLifecycle],
})
export class HealthModule {}
