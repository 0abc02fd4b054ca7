import { HttpException } from '@nestjs/common';
import { LIMIT_TEXTS } from '@alignerflow/domain';

/**
 * A 429 of a per-user limit (api.md, "Patient data"), with the seconds to wait: the exception
 * filter sends them as Retry-After.
 */
export class LimitReached extends HttpException {
  constructor(
    what: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ error: LIMIT_TEXTS.reached(what) }, 429);
  }
}
