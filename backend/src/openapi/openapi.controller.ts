import { Controller, Get, NotFoundException, Param, Req, Res } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../common/current-actor.js';
import { OpenApiDocument } from './openapi-document.service.js';

/** swagger-ui's files, served by us: the page loads nothing from elsewhere. */
const SWAGGER_UI_DIR = join(require.resolve('swagger-ui-dist/package.json'), '..');
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * The docs page runs no inline script (its start-up is docs/docs.js), so it keeps a strict policy
 * of its own: our scripts and styles only, the document fetched from here, images swagger-ui draws
 * as data: URLs. swagger-ui adds a <style> element of its own, hence 'unsafe-inline' for styles alone.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>AlignerFlow API</title>
<link rel="icon" href="docs/favicon-32x32.png">
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/swagger-ui-standalone-preset.js"></script>
<script src="docs/docs.js"></script>
</body>
</html>
`;

/** Relative to the page, so it works under any BASE_PATH. */
const DOCS_SCRIPT = `window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', document.baseURI).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

@Controller()
export class OpenApiController {
  private readonly assets = new Map<string, Buffer>();

  constructor(private readonly openApi: OpenApiDocument) {}

  @Public()
  @Get('openapi.json')
  document(): OpenAPIObject {
    return this.openApi.document;
  }

  @Public()
  @Get('docs')
  page(@Req() request: FastifyRequest, @Res() response: FastifyReply): void {
    // The page's links are relative to /api/docs; under /api/docs/ they would miss.
    if (request.url.split('?', 1)[0].endsWith('/')) {
      void response.redirect(request.url.replace(/\/+(\?|$)/, '$1'), 301);
      return;
    }
    response.header('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    void response.type('text/html; charset=utf-8').send(DOCS_PAGE);
  }

  @Public()
  @Get('docs/:file')
  asset(@Param('file') file: string, @Res() response: FastifyReply): void {
    if (file === 'docs.js') {
      response.type('text/javascript; charset=utf-8').send(DOCS_SCRIPT);
      return;
    }
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) throw new NotFoundException('No such file.');
    let bytes = this.assets.get(file);
    if (!bytes) this.assets.set(file, (bytes = readFileSync(join(SWAGGER_UI_DIR, file))));
    response.header('Cache-Control', 'public, max-age=86400');
    response.type(type).send(bytes);
  }
}
