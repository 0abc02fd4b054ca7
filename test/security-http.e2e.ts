import { HTTP_SECURITY_TEXTS } from '@alignerflow/domain';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionsService } from '../backend/src/sessions/sessions.service';
import { startTestApp, type TestApp } from './support/test-app';

const NOT_SIGNED_IN = { error: HTTP_SECURITY_TEXTS.notSignedIn };
const CROSS_SITE = { error: HTTP_SECURITY_TEXTS.crossSite };
const MANAGER_ONLY = { error: 'Only a manager can back up, restore or export the data.' };
/** 200 MB announced; only a few bytes ever follow. */
const ANNOUNCED_BYTES = 209_715_200;

interface EarlyAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** Whether the server answered while the announced body was still unfinished. */
  beforeBody: boolean;
}

/**
 * Announces a large body, sends its first bytes and no more, and waits for the answer. A server
 * that reads the body first never answers: the request is then abandoned and the test fails.
 */
function answerToUnfinishedBody(
  url: string,
  headers: Record<string, string>,
  firstBytes = '{"users":[',
): Promise<EarlyAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const target = new URL(url);
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-length': String(ANNOUNCED_BYTES), ...headers },
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          clearTimeout(abandon);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: text ? JSON.parse(text) : undefined,
            beforeBody: !request.writableFinished,
          });
          request.destroy();
        });
      },
    );
    const abandon = setTimeout(() => {
      request.destroy();
      reject(new Error(`${url}: no answer while the body was unfinished`));
    }, 20_000);
    // The server may drop the connection after answering, while this side still "sends".
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    request.write(firstBytes);
  });
}

function cookieOf(setCookie: string | null): string {
  const pair = setCookie?.split(';')[0] ?? '';
  expect(pair).toMatch(/^af_session=[^;\s]+$/);
  return pair;
}

describe('HTTP front: nothing read before the session is checked', () => {
  let lab: TestApp;
  beforeAll(async () => {
    lab = await startTestApp();
  });
  afterAll(() => lab.close());

  it('answers an anonymous 200 MB restore 401 at once, its body unread, and closes the connection', async () => {
    const answer = await answerToUnfinishedBody(`${lab.apiUrl}/restore`, {
      'content-type': 'application/json',
    });
    expect(answer).toMatchObject({ status: 401, body: NOT_SIGNED_IN, beforeBody: true });
    expect(answer.headers.connection).toBe('close');
  });

  it('answers an anonymous upload 401 before reading its multipart body', async () => {
    const answer = await answerToUnfinishedBody(
      `${lab.apiUrl}/upload`,
      { 'content-type': 'multipart/form-data; boundary=x' },
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a.stl"\r\n\r\nsolid',
    );
    expect(answer).toMatchObject({ status: 401, body: NOT_SIGNED_IN, beforeBody: true });
  });

  it('matches paths as the router does: another letter case or a trailing slash is gated too', async () => {
    for (const path of ['/API/RESTORE', '/api/Restore/']) {
      const url = `${lab.baseUrl}${path.slice(1)}`;
      const answer = await answerToUnfinishedBody(url, { 'content-type': 'application/json' });
      expect(answer).toMatchObject({ status: 401, body: NOT_SIGNED_IN, beforeBody: true });
    }
  });

  it('answers an anonymous call to an API path that names no endpoint 401, unread', async () => {
    const answer = await answerToUnfinishedBody(`${lab.apiUrl}/nope`, { 'content-type': 'application/json' });
    expect(answer).toMatchObject({ status: 401, body: NOT_SIGNED_IN, beforeBody: true });
  });

  it("answers a signed-in non-Manager's restore with the route's 403 before reading its body", async () => {
    const rep = await lab.login('rep');
    const answer = await answerToUnfinishedBody(`${lab.apiUrl}/restore`, {
      'content-type': 'application/json',
      authorization: `Bearer ${rep.token}`,
    });
    expect(answer).toMatchObject({ status: 403, body: MANAGER_ONLY, beforeBody: true });
    expect(answer.headers.connection).toBe('close');
  });

  it("gives a Manager's restore the large limit and every other route the small one", async () => {
    const admin = await lab.login('admin');
    const twoMegabytes = 'x'.repeat(2 * 1024 * 1024);
    // Read whole and validated: refused for its content, not its size.
    const restore = await admin.post('/restore', { users: 'none', cases: [], padding: twoMegabytes });
    expect(restore.status).toBe(400);
    const note = await admin.post('/cases/CA-2024-001/notes', { text: twoMegabytes });
    expect(note).toMatchObject({ status: 413, body: { error: 'The request is too large (limit 1mb).' } });
  });

  it('still answers the @Public() endpoints without a session', async () => {
    expect((await lab.anonymous.get('/health')).status).toBe(200);
    expect((await lab.anonymous.get('/health/live')).status).toBe(200);
    expect((await lab.anonymous.get('/push/vapid-public-key')).status).toBe(200);
    expect((await lab.anonymous.request('HEAD', '/health/live')).status).toBe(200);
    expect((await lab.anonymous.post('/auth/login', { username: 'admin', password: 'demo' })).status).toBe(
      200,
    );
    // And the app's pages are no API call: not gated.
    expect((await fetch(`${lab.baseUrl}some/page`, { method: 'POST' })).status).toBe(404);
  });

  it('looks a session up once per request (the guard reuses what the gate found)', async () => {
    const admin = await lab.login('admin');
    const resolve = jest.spyOn(lab.app.get(SessionsService), 'resolve');
    try {
      expect((await admin.get('/auth/me')).status).toBe(200);
      expect(resolve).toHaveBeenCalledTimes(1);
    } finally {
      resolve.mockRestore();
    }
  });
});

describe('HTTP front: cross-site requests', () => {
  let lab: TestApp;
  let cookie: string;
  let ownOrigin: string;
  beforeAll(async () => {
    lab = await startTestApp();
    const login = await lab.anonymous.post('/auth/login', { username: 'admin', password: 'demo' });
    cookie = cookieOf(login.headers.get('set-cookie'));
    ownOrigin = new URL(lab.baseUrl).origin;
  });
  afterAll(() => lab.close());

  const note = (headers: Record<string, string>, body: string = JSON.stringify({ text: 'x' })) =>
    lab.anonymous.request('POST', '/cases/CA-2024-001/notes', body, headers);
  const noteCount = async () =>
    (await (await lab.login('admin')).get('/cases/CA-2024-001')).body.notes.length;

  it('refuses a cookie-carried change from another origin, by Origin or else by Referer', async () => {
    const before = await noteCount();
    expect(await note({ cookie, origin: 'https://evil.example' })).toMatchObject({
      status: 403,
      body: CROSS_SITE,
    });
    expect(await note({ cookie, origin: 'null' })).toMatchObject({ status: 403, body: CROSS_SITE });
    expect(await note({ cookie, referer: 'https://evil.example/page' })).toMatchObject({
      status: 403,
      body: CROSS_SITE,
    });
    // Same host, other scheme or port: another origin.
    expect(await note({ cookie, origin: ownOrigin.replace('http:', 'https:') })).toMatchObject({
      status: 403,
    });
    expect(
      await lab.anonymous.request('DELETE', '/users/rep', undefined, {
        cookie,
        origin: 'https://evil.example',
      }),
    ).toMatchObject({ status: 403, body: CROSS_SITE });
    expect(await noteCount()).toBe(before);
  });

  it('accepts a cookie-carried change from its own pages, or with neither Origin nor Referer', async () => {
    expect((await note({ cookie, origin: ownOrigin })).status).toBe(201);
    expect((await note({ cookie, referer: `${lab.baseUrl}cases` })).status).toBe(201);
    expect((await note({ cookie })).status).toBe(201);
  });

  it('refuses a cookie-carried body that is not JSON with 415 (a form cannot send JSON)', async () => {
    const before = await noteCount();
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      expect(await note({ cookie, 'content-type': contentType }, '{"text":"x"}')).toMatchObject({
        status: 415,
        body: { error: HTTP_SECURITY_TEXTS.jsonOnly },
      });
    }
    expect(await noteCount()).toBe(before);
  });

  it('takes only multipart on /upload, and a change without a body as it is', async () => {
    const upload = await lab.anonymous.request('POST', '/upload', '{}', {
      cookie,
      'content-type': 'application/json',
    });
    expect(upload).toMatchObject({ status: 415, body: { error: HTTP_SECURITY_TEXTS.multipartOnly } });
    const form = new FormData();
    form.append('type', 'Photo');
    const multipart = await fetch(`${lab.apiUrl}/upload`, {
      method: 'POST',
      body: form,
      headers: { cookie },
    });
    expect(multipart.status).toBe(400); // past the defences: the route says the file is missing
    const login = await lab.anonymous.post('/auth/login', { username: 'rep', password: 'demo' });
    const repCookie = cookieOf(login.headers.get('set-cookie'));
    const logout = await lab.anonymous.request('POST', '/auth/logout', undefined, {
      cookie: repCookie,
      origin: ownOrigin,
    });
    expect(logout.status).toBe(204);
  });

  it('exempts bearer-token calls, which no other site can make on the user’s behalf', async () => {
    const admin = await lab.login('admin');
    expect(
      (
        await admin.request(
          'POST',
          '/cases/CA-2024-001/notes',
          { text: 'x' },
          { origin: 'https://app.example', cookie },
        )
      ).status,
    ).toBe(201);
    // A bearer call's other content types are refused as before, by the route (400), not here.
    expect(
      (await admin.request('POST', '/cases/CA-2024-001/notes', 'text=x', { 'content-type': 'text/plain' }))
        .status,
    ).toBe(400);
  });
});

describe('HTTP front: own origin behind BASE_PATH and a trusted proxy', () => {
  let lab: TestApp;
  afterEach(() => lab.close());

  async function cookieFor(app: TestApp) {
    const login = await app.anonymous.post('/auth/login', { username: 'admin', password: 'demo' });
    return cookieOf(login.headers.get('set-cookie'));
  }

  it('holds under a base path', async () => {
    lab = await startTestApp({ BASE_PATH: '/portal/' });
    const cookie = await cookieFor(lab);
    const origin = new URL(lab.baseUrl).origin;
    const body = JSON.stringify({ text: 'x' });
    expect(
      (await lab.anonymous.request('POST', '/cases/CA-2024-001/notes', body, { cookie, origin })).status,
    ).toBe(201);
    expect(
      (
        await lab.anonymous.request('POST', '/cases/CA-2024-001/notes', body, {
          cookie,
          referer: `${origin}/other/`,
        })
      ).status,
    ).toBe(201);
    expect(
      await lab.anonymous.request('POST', '/cases/CA-2024-001/notes', body, {
        cookie,
        origin: 'https://evil.example',
      }),
    ).toMatchObject({ status: 403, body: CROSS_SITE });
  });

  it('takes the proxy’s scheme and host only from a proxy named in TRUST_PROXY', async () => {
    const proxied = {
      origin: 'https://lab.example',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'lab.example',
    };
    const body = JSON.stringify({ text: 'x' });
    lab = await startTestApp({ TRUST_PROXY: 'loopback' });
    let cookie = await cookieFor(lab);
    const trusted = await lab.anonymous.request('POST', '/cases/CA-2024-001/notes', body, {
      cookie,
      ...proxied,
    });
    expect(trusted.status).toBe(201);
    expect(trusted.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    await lab.close();

    lab = await startTestApp();
    cookie = await cookieFor(lab);
    const untrusted = await lab.anonymous.request('POST', '/cases/CA-2024-001/notes', body, {
      cookie,
      ...proxied,
    });
    expect(untrusted).toMatchObject({ status: 403, body: CROSS_SITE });
    expect(untrusted.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('HTTP front: headers', () => {
  let lab: TestApp;
  let spaDir: string;
  beforeAll(async () => {
    spaDir = mkdtempSync(join(tmpdir(), 'af-spa-'));
    writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>AlignerFlow</title>');
    lab = await startTestApp({}, { spaDir });
  });
  afterAll(async () => {
    await lab.close();
    rmSync(spaDir, { recursive: true, force: true });
  });

  it('sends nosniff and a Referrer-Policy on every answer, refusals included', async () => {
    for (const answer of [
      await lab.anonymous.get('/health'),
      await lab.anonymous.get('/cases'),
      await fetch(`${lab.baseUrl}cases/CA-2024-001`),
    ]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it("gives the app's pages a CSP that frames https viewers but is never framed itself", async () => {
    const page = await fetch(`${lab.baseUrl}`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v.join(' ')]),
    );
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'self'");
    expect(directives.get('frame-src')).toBe('https:');
    expect(page.headers.get('permissions-policy')).toMatch(/(^|, )camera=\(self\)/);
    expect(page.headers.get('permissions-policy')).toMatch(/(^|, )microphone=\(\)/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('sends HSTS only over TLS or when SECURE_COOKIES says the site is behind it', async () => {
    expect((await lab.anonymous.get('/health')).headers.get('strict-transport-security')).toBeNull();
    // Not believed from a proxy that TRUST_PROXY does not name.
    expect(
      (await lab.anonymous.get('/health', { 'x-forwarded-proto': 'https' })).headers.get(
        'strict-transport-security',
      ),
    ).toBeNull();
    const secure = await startTestApp({ SECURE_COOKIES: '1' });
    try {
      expect((await secure.anonymous.get('/health')).headers.get('strict-transport-security')).toMatch(
        /^max-age=\d+/,
      );
    } finally {
      await secure.close();
    }
  });
});
