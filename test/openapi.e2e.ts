import type { NestExpressApplication } from '@nestjs/platform-express';
import { startTestApp, type TestApp } from './support/test-app';

/** api.md "Operations": GET /openapi.json and GET /docs. */
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/** What Express actually mounted under the API prefix: `METHOD /api/path/{param}` each. */
function mountedRoutes(lab: TestApp): string[] {
  const express = (lab.app as NestExpressApplication).getHttpAdapter().getInstance() as {
    router: { stack: Layer[] };
  };
  const routes: string[] = [];
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    for (const path of ([] as string[]).concat(layer.route.path))
      for (const [method, on] of Object.entries(layer.route.methods))
        if (on && METHODS.includes(method) && path.startsWith('/api'))
          routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
  }
  return routes.sort();
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

  it('describes every route Express mounted, and nothing else', () => {
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
