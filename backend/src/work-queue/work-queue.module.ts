import { Module } from '@nestjs/common';
import { WorkQueueController } from './work-queue.controller.js';
import { WorkQueueQuery } from './work-queue.query.js';

@Module({
  controllers: [WorkQueueController],
  providers: [WorkQueueQuery],
})
export class WorkQueueModule {}
