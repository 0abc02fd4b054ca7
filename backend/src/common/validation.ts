import {
  BadRequestException,
  ValidationError,
  ValidationPipe,
  type ArgumentMetadata,
  type Type,
} from '@nestjs/common';

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

/** True only for a value its field's decorators certainly accept. */
export type QuickCheck = (value: unknown) => boolean;

/** @IsString() @MaxLength(max): a string no longer than max UTF-16 units (MaxLength counts fewer). */
export const shortText =
  (max: number): QuickCheck =>
  (value) =>
    typeof value === 'string' && value.length <= max;
/** @IsOptional() with `check`; null is left to class-validator. */
export const optional =
  (check: QuickCheck): QuickCheck =>
  (value) =>
    value === undefined || check(value);
/** @IsInt() @Min(0) */
export const wholeNumber: QuickCheck = (value) => Number.isInteger(value) && (value as number) >= 0;

const quickChecks = new Map<Type<unknown>, Record<string, QuickCheck>>();

/**
 * Declares for a flat DTO (string and number fields only) the checks its usual bodies pass without
 * class-validator, which with class-transformer costs more per command than the rest of the
 * request's own work. The checks may only be stricter than the decorators: a body they accept is
 * copied into the DTO as class-validator would pass it; anything else (an unknown field, a value
 * they do not vouch for) goes through class-validator, whose answer and 400 texts stay the ones.
 */
export function quickBodyCheck<T>(dto: Type<T>, fields: { [K in keyof T]-?: QuickCheck }): void {
  quickChecks.set(dto, fields as Record<string, QuickCheck>);
}

function passesQuickCheck(value: unknown, fields: Record<string, QuickCheck>): value is object {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
    return false;
  for (const key in value) if (!Object.hasOwn(fields, key)) return false;
  for (const key in fields) if (!fields[key]((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** class-validator on every DTO (after the quick check); the first problem is the error text, all of them the details. */
class BodyValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const fields = metadata.type === 'body' && metadata.metatype && quickChecks.get(metadata.metatype);
    if (fields && passesQuickCheck(value, fields)) {
      return Promise.resolve(Object.assign(new (metadata.metatype as Type<object>)(), value));
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new BodyValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => {
      const details = messages(errors);
      return new BadRequestException({ error: details[0] ?? 'Invalid input.', details });
    },
  });
}
