import { Global, Module } from '@nestjs/common';
import { StepUpGuard } from './step-up.decorator.js';
import { StepUpService } from './step-up.service.js';

/** Global, so any capability's controller can mark a route @StepUp(). */
@Global()
@Module({ providers: [StepUpService, StepUpGuard], exports: [StepUpService, StepUpGuard] })
export class StepUpModule {}
