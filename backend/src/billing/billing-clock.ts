import { Injectable } from '@nestjs/common';

/** What time it is for aging and reminders; tests set it (api tests run the app in-process). */
@Injectable()
export class BillingClock {
  private fixed: Date | undefined;

  now(): Date {
    return this.fixed ? new Date(this.fixed) : new Date();
  }

  /** Tests only: freeze the clock at `at` (undefined: the real clock again). */
  set(at: Date | undefined): void {
    this.fixed = at;
  }
}
