import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { AuthenticatedRequest } from '../common/current-actor.js';
import { StepUpService } from './step-up.service.js';

@Injectable()
export class StepUpGuard implements CanActivate {
  constructor(private readonly stepUp: StepUpService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.stepUp.require(context.switchToHttp().getRequest<AuthenticatedRequest>());
    return true;
  }
}

/**
 * The route needs a session that proved its user within the last 10 minutes (step-up.service.ts);
 * for a condition known only inside the handler, call StepUpService.require there instead.
 */
export const StepUp = () => applyDecorators(UseGuards(StepUpGuard));
