import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import type { Actor } from '@alignerflow/domain';
import { CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { ProjectionRebuildService } from './projection-rebuild.service.js';

const MANAGER_ONLY = 'Only a manager can rebuild the read models.';

/** The admin side of `npm run replay`: start a rebuild of every read model, follow its progress. */
@Controller('admin/rebuild-projections')
export class RebuildController {
  constructor(private readonly rebuilds: ProjectionRebuildService) {}

  /** 202 with the progress; a rebuild already under way is not started twice. */
  @Post()
  @HttpCode(202)
  start(@CurrentActor() actor: Actor) {
    if (actor.role !== 'Manager') rejectWith('forbidden', MANAGER_ONLY);
    return this.rebuilds.start();
  }

  /** `{state, eventsDone, eventsTotal, eventsPerSecond, …}` of the latest rebuild. */
  @Get()
  status(@CurrentActor() actor: Actor) {
    if (actor.role !== 'Manager') rejectWith('forbidden', MANAGER_ONLY);
    return this.rebuilds.status();
  }
}
