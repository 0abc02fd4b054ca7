import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { CASE_TEXTS, type Actor, type Case } from '@alignerflow/domain';
import { StepUp } from '../sessions/step-up.decorator.js';
import { Caller, CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { ErasureService } from './erasure.service.js';
import { EraseCaseDto, PurgeFileDto, RetentionDto } from './patient-data.dto.js';
import { RetentionService, type RetentionSettings } from './retention.service.js';

/** api.md "Patient data": erasure, file purges, the retention rule. */
@Controller()
export class PatientDataController {
  constructor(
    private readonly erasure: ErasureService,
    private readonly retention: RetentionService,
  ) {}

  @Post('cases/:id/erase')
  @HttpCode(200)
  @StepUp()
  erase(@Caller() caller: Caller, @Param('id') id: string, @Body() body: EraseCaseDto): Promise<Case> {
    return this.erasure.erase(id, body.reason, caller.actor, { correlationId: caller.correlationId });
  }

  @Post('cases/:id/files/purge')
  @HttpCode(200)
  @StepUp()
  purge(@Caller() caller: Caller, @Param('id') id: string, @Body() body: PurgeFileDto): Promise<Case> {
    return this.erasure.purge(id, body.url, body.reason, caller.actor, {
      correlationId: caller.correlationId,
    });
  }

  @Get('settings/retention')
  getRetention(@CurrentActor() actor: Actor): Promise<RetentionSettings> {
    managerOnly(actor);
    return this.retention.settings();
  }

  @Put('settings/retention')
  putRetention(@CurrentActor() actor: Actor, @Body() body: RetentionDto): Promise<RetentionSettings> {
    managerOnly(actor);
    return this.retention.save(body.eraseAfterYears ?? null, actor);
  }
}

function managerOnly(actor: Actor): void {
  if (actor.role !== 'Manager') rejectWith('forbidden', CASE_TEXTS.managerOnly);
}
