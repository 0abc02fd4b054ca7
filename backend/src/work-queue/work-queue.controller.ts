import { Controller, Get } from '@nestjs/common';
import { WORK_QUEUE_TEXTS, type Actor } from '@alignerflow/domain';
import { CurrentActor } from '../common/current-actor.js';
import { requireCapability } from '../common/require-capability.js';
import { WorkQueueQuery } from './work-queue.query.js';

@Controller()
export class WorkQueueController {
  constructor(private readonly query: WorkQueueQuery) {}

  /** My Queue: the caller's case work, soonest due first (api.md, Case work). */
  @Get('work-queue')
  list(@CurrentActor() actor: Actor) {
    requireCapability(actor, 'viewWorkQueue', WORK_QUEUE_TEXTS.doctorsHaveNoQueue);
    return this.query.forActor(actor);
  }
}
