import { Module } from '@nestjs/common';
import { MaterialsStoreModule } from '../materials/materials-store.module.js';
import { WorkQueueController } from './work-queue.controller.js';
import { WorkQueueQuery } from './work-queue.query.js';

@Module({
  imports: [MaterialsStoreModule],
  controllers: [WorkQueueController],
  providers: [WorkQueueQuery],
})
export class WorkQueueModule {}
