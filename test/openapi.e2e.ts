import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { READS_BODY } from '../backend/src/common/request-body';
import { startTestApp, type TestApp } from './support/test-app';

/** api.md "Operations": GET /openapi.json and GET /docs. */
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * What Fastify actually mounted under the API prefix: `METHOD /api/path/{param}` each, read from
 * its own route tree (printRoutes: one line per node, four columns per level, a node's path
 * continuing its parent's, its methods in parentheses).
 */
function mountedRoutes(lab: TestApp): string[] {
  const fastify = (lab.app as NestFastifyApplication).getHttpAdapter().getInstance();
  const routes: string[] = [];
  const prefixes: string[] = [];
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    const depth = node[1].length / 4;
    const path = (prefixes[depth - 1] ?? '') + node[2];
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    for (const method of (node[3] ?? '').split(', ').filter(Boolean))
      if (METHODS.includes(method.toLowerCase()) && path.startsWith('/api'))
        routes.push(`${method.toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
  }
  return routes.sort();
}

/**
 * Every route whose handler reads a body, from the controllers' own metadata: a @Body() parameter
 * (JSON), or the mark of a handler that reads its body from the stream itself (multipart).
 * `METHOD /api/path/{param}` → the media type it takes.
 */
function bodyReadingRoutes(lab: TestApp): Map<string, string> {
  const discovery = new DiscoveryService(lab.app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const routes = new Map<string, string>();
  const list = (paths: string | string[] | undefined) => ([] as string[]).concat(paths ?? '');
  for (const wrapper of discovery.getControllers()) {
    if (!wrapper.metatype || !wrapper.instance) continue;
    const prototype = Object.getPrototypeOf(wrapper.instance) as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (paths === undefined) continue;
      const args = Object.keys(Reflect.getMetadata(ROUTE_ARGS_METADATA, wrapper.metatype, name) ?? {});
      const streamed = Reflect.getMetadata(READS_BODY, handler) as string | undefined;
      const takes =
        streamed ??
        (args.some((key) => key.startsWith(`${RouteParamtypes.BODY}:`)) ? 'application/json' : undefined);
      if (!takes) continue;
      const method =
        RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod].toLowerCase();
      for (const base of list(Reflect.getMetadata(PATH_METADATA, wrapper.metatype) as string | string[]))
        for (const path of list(paths)) {
          const full = `/api/${base}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
          routes.set(`${method} ${full.replace(/:(\w+)/g, '{$1}')}`, takes);
        }
    }
  }
  return routes;
}

describe('the OpenAPI document and the docs page', () => {
  let lab: TestApp;
  let document: any;

  beforeAll(async () => {
    lab = await startTestApp();
    const answer = await lab.anonymous.get('/openapi.json');
    expect(answer.status).toBe(200);
    document = answer.body;
  });
  afterAll(() => lab?.close());

  it('is OpenAPI 3.1, served without sign-in', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('AlignerFlow API');
  });

  it('describes every route Fastify mounted, and nothing else', () => {
    const mounted = mountedRoutes(lab);
    // The app mounts dozens; a broken enumeration must not pass by finding none.
    expect(mounted.length).toBeGreaterThan(50);
    const described = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => METHODS.includes(key))
          .map((m) => `${m} ${path}`),
      )
      .sort();
    expect(described).toEqual(mounted);
  });

  it('describes the body of every route whose handler reads one', () => {
    const routes = bodyReadingRoutes(lab);
    // A broken enumeration must not pass by finding none.
    expect(routes.size).toBeGreaterThan(30);
    expect([...routes]).toEqual(
      expect.arrayContaining([
        ['put /api/cases/{id}', 'application/json'],
        ['post /api/restore', 'application/json'],
        ['post /api/upload', 'multipart/form-data'],
      ]),
    );
    const undescribed = [...routes]
      .filter(([route, type]) => {
        const [method, path] = route.split(' ');
        return !document.paths[path]?.[method]?.requestBody?.content?.[type]?.schema;
      })
      .map(([route, type]) => `${route} (${type})`);
    expect(undescribed).toEqual([]);
  });

  it('gives each request body its fields from the validation the server applies', () => {
    const body = document.paths['/api/cases'].post.requestBody.content['application/json'].schema;
    const schema = document.components.schemas[body.$ref.split('/').pop()];
    expect(schema.required).toEqual(expect.arrayContaining(['patientName', 'doctorName', 'clinicName']));
    expect(schema.required).not.toContain('priority');
    expect(schema.properties.patientName).toMatchObject({ type: 'string', maxLength: expect.any(Number) });
    expect(schema.properties.priority.enum).toEqual(['Normal', 'High']);
    const login = document.paths['/api/auth/login'].post.requestBody.content['application/json'].schema;
    expect(document.components.schemas[login.$ref.split('/').pop()].properties).toMatchObject({
      username: { type: 'string' },
      password: { type: 'string' },
      rememberMe: { type: 'boolean' },
    });
  });

  it('documents the error answers of api.md', () => {
    const login = document.paths['/api/auth/login'].post;
    expect(login.security).toEqual([]);
    expect(login.responses['401'].description).toBe('Invalid username or password.');
    expect(login.responses['429'].description).toMatch(/^Too many sign-in attempts/);
    const note = document.paths['/api/cases/{id}/notes'].post;
    expect(Object.keys(note.responses)).toEqual(
      expect.arrayContaining(['400', '401', '403', '404', '409', '413', '415']),
    );
    expect(note.responses['401']).toMatchObject({
      description: 'Not signed in.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    expect(document.paths['/api/upload'].post.responses['413']).toBeDefined();
    expect(document.paths['/api/upload'].post.responses['415'].description).toBe(
      'An upload must be sent as multipart/form-data.',
    );
    expect(document.paths['/api/ai/analyze-photo'].post.responses['429']).toBeDefined();
    expect(document.paths['/api/backup'].get.responses['403']).toBeDefined();
    // Every route that needs a session says so, and answers 401 without one.
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>))
      for (const method of METHODS.filter((m) => item[m]))
        if (item[method].security.length)
          expect([path, method, item[method].responses['401']?.description]).toEqual([
            path,
            method,
            'Not signed in.',
          ]);
  });

  it('serves the docs page with its assets from here, under a policy that allows no other origin', async () => {
    const page = await fetch(`${lab.apiUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/https?:/);
    const html = await page.text();
    expect(html).not.toMatch(/<script>|https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url);
    expect(assets).toEqual(expect.arrayContaining(['docs/swagger-ui-bundle.js', 'docs/docs.js']));
    for (const asset of assets) {
      const answer = await fetch(new URL(asset, `${lab.apiUrl}/docs`));
      expect([asset, answer.status]).toEqual([asset, 200]);
    }
    expect((await fetch(`${lab.apiUrl}/docs/package.json`)).status).toBe(404);
    expect((await fetch(`${lab.apiUrl}/docs/..%2Fpackage.json`)).status).toBe(404);
  });
});
