import { Global, Module } from '@nestjs/common';
import { AttemptLimiter } from './attempt-limiter.js';

/** Defences shared by several capabilities (sign-in throttling, per-user rate limits). */
@Global()
@Module({
  providers: [AttemptLimiter],
  exports: [AttemptLimiter],
})
export class SecurityModule {}
