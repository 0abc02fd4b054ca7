import { Global, Injectable, Module } from '@nestjs/common';

/**
 * The time the account rules judge by (an mfaToken's life, a step-up's age). One provider, so a
 * test can move it (jest.spyOn(app.get(Clock), 'now')) instead of sleeping.
 */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }
}

@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
