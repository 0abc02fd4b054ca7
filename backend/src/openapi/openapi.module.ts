import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller.js';
import { OpenApiDocument } from './openapi-document.service.js';

/** GET /api/openapi.json and the page GET /api/docs. */
@Module({ controllers: [OpenApiController], providers: [OpenApiDocument] })
export class OpenApiModule {}
