import { getMetadataStorage } from 'class-validator';
import type { OpenAPIObject } from '@nestjs/swagger';

type SchemaObject = Exclude<
  NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string],
  { $ref: string }
>;
type Schema = SchemaObject & { type?: string | string[] };

/** class-validator's checks as JSON Schema: the type checks set `type`, the limits their keywords. */
const RULES: Record<string, (schema: Schema, constraints: unknown[], each: boolean) => void> = {
  isString: (schema) => (schema.type = 'string'),
  isInt: (schema) => (schema.type = 'integer'),
  isNumber: (schema) => (schema.type = 'number'),
  isBoolean: (schema) => (schema.type = 'boolean'),
  isObject: (schema, _, each) => (each ? (schema.items = { type: 'object' }) : (schema.type = 'object')),
  isArray: (schema) => (schema.type = 'array'),
  isUrl: (schema) => ((schema.type = 'string'), (schema.format = 'uri')),
  isIn: (schema, [values]) => (schema.enum = values as unknown[]),
  isNotEmpty: (schema) => (schema.minLength = 1),
  maxLength: (schema, [max]) => (schema.maxLength = max as number),
  minLength: (schema, [min]) => (schema.minLength = min as number),
  min: (schema, [min]) => (schema.minimum = min as number),
  max: (schema, [max]) => (schema.maximum = max as number),
  matches: (schema, [pattern]) =>
    (schema.pattern = pattern instanceof RegExp ? pattern.source : String(pattern)),
};

/**
 * The JSON Schema of a request body class, read from the class-validator decorators that the
 * validation pipe enforces, so the document says what the server checks (the DTOs carry no
 * separate OpenAPI annotations that could drift from it). A field validated only under a
 * condition (@ValidateIf) gets no `type`: the server takes more than one.
 */
export function dtoSchema(dto: new (...args: never[]) => unknown): SchemaObject {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const properties: Record<string, Schema> = {};
  const optional = new Set<string>();
  const conditional = new Set<string>();
  for (const entry of metadata) {
    const schema = (properties[entry.propertyName] ??= {});
    if (entry.type === 'conditionalValidation') {
      // @IsOptional() is a condition too: it skips null and undefined.
      (entry.name === 'isOptional' ? optional : conditional).add(entry.propertyName);
      continue;
    }
    if (entry.type === 'nestedValidation') continue;
    const name = entry.name ?? entry.type;
    RULES[name]?.(schema, entry.constraints ?? [], entry.each === true);
  }
  for (const name of conditional) delete properties[name].type;
  const required = Object.keys(properties).filter((name) => !optional.has(name));
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
