import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

function messages(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    // A missing or mistyped value fails its limits too; the type check's message is the one that
    // explains (and the one the DTOs word for the user), so it comes first.
    const own = Object.entries(error.constraints ?? {})
      .sort(([a], [b]) => Number(!isTypeCheck(a)) - Number(!isTypeCheck(b)))
      .map(([, message]) => message);
    return [...own, ...messages(error.children ?? [], path)];
  });
}

/** isString, isInt, isBoolean, isIn…, as opposed to limits such as maxLength or min. */
function isTypeCheck(constraint: string): boolean {
  return constraint.startsWith('is');
}

/** class-validator on every DTO; the first problem is the error text, all of them the details. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => {
      const details = messages(errors);
      return new BadRequestException({ error: details[0] ?? 'Invalid input.', details });
    },
  });
}
