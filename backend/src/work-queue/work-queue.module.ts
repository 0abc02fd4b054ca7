import { Module } from '@nestjs/common';
import { MaterialsStoreModule } from '../materials-store/materials-store.module.js';
import { WorkQueueController } from './work-queue.controller.js';
import { WorkQueueQueries } from './work-queue.queries.js';

@Module({
  imports: [MaterialsStoreModule],
  controllers: [WorkQueueController],
  providers: [WorkQueueQueries],
})
export class WorkQueueModule {}
