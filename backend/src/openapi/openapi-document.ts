import type { INestApplication } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SessionGate } from '../security/session-gate.js';
import { errorsOf } from './documented-errors.js';
import { dtoSchema } from './dto-schemas.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;
type Dto = new (...args: never[]) => unknown;
type OperationObject = NonNullable<OpenAPIObject['paths'][string]['get']>;

/**
 * The OpenAPI 3.1 description of every route the application mounts, generated from its
 * controllers: paths and parameters by @nestjs/swagger, request bodies from the DTO classes'
 * validation decorators, who may call each route from its @Public() marks, and the error answers
 * of api.md. Built once, when the application is assembled.
 */
export function buildOpenApiDocument(app: INestApplication, apiPrefix: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('AlignerFlow API')
    .setDescription(
      'The HTTP API of AlignerFlow. Sign in with POST /auth/login; send its `token` as `Authorization: Bearer <token>` (or the `af_session` cookie). Errors are `{ "error": "<message>" }`.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer' }, 'bearer')
    .addCookieAuth('af_session', { type: 'apiKey', in: 'cookie', name: 'af_session' }, 'cookie')
    .build();
  const document = SwaggerModule.createDocument(app, config);

  const schemas = (document.components ??= {}).schemas ?? (document.components.schemas = {});
  for (const dto of bodyClasses(app)) if (schemas[dto.name]) schemas[dto.name] = dtoSchema(dto);
  schemas.Error = {
    type: 'object',
    properties: { error: { type: 'string' }, details: { type: 'array', items: { type: 'string' } } },
    required: ['error'],
  };

  const publicRoutes = new Set(
    new SessionGate(app)
      .routes(apiPrefix)
      .filter((route) => route.isPublic)
      .map((route) => `${route.method} ${openApiPath(route.path)}`),
  );
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation) continue;
      const isPublic = publicRoutes.has(`${method} ${path}`);
      operation.security = isPublic ? [] : [{ bearer: [] }, { cookie: [] }];
      const errors = errorsOf(method, path.slice(apiPrefix.length) || '/', {
        isPublic,
        hasBody: operation.requestBody !== undefined,
      });
      for (const { status, description } of errors)
        operation.responses[String(status)] ??= {
          description,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        };
    }
  }
  return document;
}

/** /api/cases/:id → /api/cases/{id} */
export function openApiPath(routePath: string): string {
  return routePath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The classes of every @Body() parameter of every controller. */
function bodyClasses(app: INestApplication): Set<Dto> {
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const classes = new Set<Dto>();
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as Dto | undefined;
    if (!controller || !wrapper.instance) continue;
    const prototype = Object.getPrototypeOf(wrapper.instance) as object;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
        string,
        { index: number }
      >;
      const types = (Reflect.getMetadata('design:paramtypes', prototype, name) ?? []) as unknown[];
      for (const [key, { index }] of Object.entries(args))
        if (key.startsWith(`${RouteParamtypes.BODY}:`) && typeof types[index] === 'function')
          classes.add(types[index] as Dto);
    }
  }
  return classes;
}
