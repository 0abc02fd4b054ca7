import { Module } from '@nestjs/common';
import { ProjectionRebuildService } from './projection-rebuild.service.js';
import { RebuildController } from './rebuild.controller.js';

@Module({
  controllers: [RebuildController],
  providers: [ProjectionRebuildService],
  exports: [ProjectionRebuildService],
})
export class RebuildModule {}
