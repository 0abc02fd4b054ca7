import { HttpException } from '@nestjs/common';
import type { Rejection, RejectionKind } from '@alignerflow/domain';

const STATUS_BY_KIND: Record<RejectionKind, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
};

/** A rule of the domain said no: the answer carries its exact text. */
export class DomainRejection extends HttpException {
  constructor(rejection: Rejection) {
    super(
      rejection.details
        ? { error: rejection.message, details: rejection.details }
        : { error: rejection.message },
      STATUS_BY_KIND[rejection.kind],
    );
  }
}

export function rejectWith(kind: RejectionKind, message: string): never {
  throw new DomainRejection({ kind, message });
}
