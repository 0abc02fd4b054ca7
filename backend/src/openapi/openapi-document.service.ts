import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/** Holds the document built when the application was assembled (see buildOpenApiDocument). */
@Injectable()
export class OpenApiDocument {
  private built?: OpenAPIObject;

  get document(): OpenAPIObject {
    if (!this.built) throw new Error('The OpenAPI document is built when the application is assembled.');
    return this.built;
  }

  publish(document: OpenAPIObject): void {
    this.built = document;
  }
}
