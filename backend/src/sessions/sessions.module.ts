import { Global, Module } from '@nestjs/common';
import { SessionsService } from './sessions.service.js';
import { StepUpGuard } from './step-up.decorator.js';
import { StepUpService } from './step-up.service.js';

/**
 * Sessions and their step-up proof. Global, so any capability's controller can mark a route
 * @StepUp() and end a user's sessions, and sign-in (auth/), user management (users/), live streams
 * and the session gate (security/) share one session cache without importing one another.
 */
@Global()
@Module({
  providers: [SessionsService, StepUpService, StepUpGuard],
  exports: [SessionsService, StepUpService, StepUpGuard],
})
export class SessionsModule {}
