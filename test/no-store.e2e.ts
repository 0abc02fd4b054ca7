import { download, PNG, upload } from './support/files';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/** api.md, "Patient data": every /api answer holding user or patient data carries no-store. */
describe('Cache-Control: no-store on the API', () => {
  let lab: TestApp;
  let admin: ApiClient;

  beforeAll(async () => {
    lab = await startTestApp();
    admin = await lab.login('admin');
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
  });

  it('marks the answers that carry users, cases and files', async () => {
    const stored = await upload(admin, PNG, 'x-ray.png', { caseId: 'CA-2024-077', type: 'Photo' });
    const file = await fetch(new URL(stored.body.url, admin.apiUrl), {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect((await download(admin, stored.body.url)).status).toBe(200);
    for (const path of [
      '/cases',
      '/cases/CA-2024-077',
      '/cases/CA-2024-077/history',
      '/auth/me',
      '/users',
      '/dashboard',
      '/work-queue',
      '/access-log',
    ]) {
      const answer = await admin.get(path);
      expect([path, answer.status, answer.headers.get('cache-control')]).toEqual([path, 200, 'no-store']);
    }
    // Errors too: a refused or unknown read may still name what was asked for.
    expect((await admin.get('/cases/CA-1999-001')).headers.get('cache-control')).toBe('no-store');
    expect((await lab.anonymous.get('/cases')).headers.get('cache-control')).toBe('no-store');
    const login = await lab.anonymous.post('/auth/login', { username: 'rep', password: 'demo' });
    expect(login.headers.get('cache-control')).toBe('no-store');
  });

  it('marks a case reached through an escaped path as the plain one', async () => {
    const plain = await admin.get('/cases/CA-2024-077');
    const escaped = await fetch(new URL('/%61pi/cases/CA-2024-077', admin.apiUrl), {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    // The router decodes the escape: the same endpoint, the same case, the API's headers.
    expect(escaped.status).toBe(200);
    expect((await escaped.json()).id).toBe('CA-2024-077');
    expect(escaped.headers.get('cache-control')).toBe('no-store');
    expect(escaped.headers.get('content-security-policy')).toBe(plain.headers.get('content-security-policy'));
  });

  it('keeps the list conditional: the app revalidates its own copy with If-None-Match', async () => {
    const first = await admin.get('/cases');
    const tag = first.headers.get('etag');
    expect(tag).toBeTruthy();
    const again = await admin.get('/cases', { 'if-none-match': tag! });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('no-store');
  });

  it('leaves the answers without personal data cacheable as before', async () => {
    for (const path of ['/health', '/config', '/openapi.json', '/push/vapid-public-key']) {
      const answer = await lab.anonymous.get(path);
      expect([path, answer.status, answer.headers.get('cache-control')]).toEqual([path, 200, null]);
    }
    const asset = await lab.anonymous.get('/docs/swagger-ui.css');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=86400');
  });

  it('leaves a shareable answer reached through an escaped path as cacheable as the plain one', async () => {
    for (const [plainPath, escapedPath] of [
      ['/health', '/%68ealth'],
      ['/config', '/C%6Fnfig'],
    ]) {
      const plain = await lab.anonymous.get(plainPath);
      const escaped = await lab.anonymous.get(escapedPath);
      // The router decodes the escape and ignores letter case: the same endpoint, the same headers.
      expect([escapedPath, escaped.status, escaped.body]).toEqual([escapedPath, 200, plain.body]);
      expect([escapedPath, escaped.headers.get('cache-control')]).toEqual([
        escapedPath,
        plain.headers.get('cache-control'),
      ]);
    }
  });
});
