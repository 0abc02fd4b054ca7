import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

function messages(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {});
    return [...own, ...messages(error.children ?? [], path)];
  });
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
