import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';

/** Marks a handler that reads its body itself, from the request stream (no @Body() parameter). */
export const READS_BODY = 'alignerflow:reads-body';

type BodySchema = Parameters<typeof ApiBody>[0] & { schema: object };

/**
 * The request body of a handler whose @Body() is no validated class (a body checked by the
 * domain, e.g. a backup file): how the OpenAPI document (GET /api/openapi.json) describes it.
 */
export function JsonBody(description: string, schema: object): MethodDecorator {
  return ApiBody({ description, schema } satisfies BodySchema);
}

/** A multipart/form-data body, streamed and read by the handler itself. */
export function MultipartBody(description: string, schema: object): MethodDecorator {
  return applyDecorators(
    SetMetadata(READS_BODY, 'multipart/form-data'),
    ApiConsumes('multipart/form-data'),
    ApiBody({ description, schema } satisfies BodySchema),
  );
}
