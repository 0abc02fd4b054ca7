import { Logger } from '@nestjs/common';
import { requestFrom } from './support/from-address';
import { startTestApp, type TestApp } from './support/test-app';

/** api.md Accounts: sign-in throttling per client address and per username, and the sign-in log. */
const INVALID_LOGIN = { error: 'Invalid username or password.' };
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0';

describe('sign-in throttling that holds against many addresses', () => {
  let lab: TestApp;
  /** Behind a trusted proxy (loopback), so X-Forwarded-For names the client: IPv6 and many addresses. */
  let proxied: TestApp;

  beforeAll(async () => {
    [lab, proxied] = await Promise.all([startTestApp(), startTestApp({ TRUST_PROXY: 'loopback' })]);
  });
  afterAll(async () => {
    await Promise.all([lab?.close(), proxied?.close()]);
  });

  const login = (
    app: TestApp,
    from: { socket?: string; forwarded?: string; cookie?: string },
    username: string,
    password: string,
  ) =>
    requestFrom(
      from.socket ?? '127.0.0.1',
      `${app.apiUrl}/auth/login`,
      'POST',
      { username, password },
      {
        'user-agent': USER_AGENT,
        ...(from.forwarded ? { 'x-forwarded-for': from.forwarded } : {}),
        ...(from.cookie ? { cookie: from.cookie } : {}),
      },
    );

  const deviceCookie = (answer: { headers: Headers }) => {
    const cookie = answer.headers.getSetCookie().find((one) => one.startsWith('af_device='));
    expect(cookie).toMatch(/^af_device=[^;]+;.*HttpOnly/i);
    expect(cookie).toMatch(/Expires=/i);
    return cookie!.split(';')[0];
  };

  it('refuses one address after 20 failures within 15 minutes, whatever the usernames; others go on', async () => {
    const socket = '127.0.0.20';
    // Successes do not count: a lab's whole staff behind one address signs in all day.
    for (let attempt = 0; attempt < 21; attempt++)
      expect((await login(lab, { socket }, 'rep', 'demo')).status).toBe(200);
    // 4 failures for each of 5 usernames: no (username, address) pair reaches its limit of 5.
    for (const username of ['tech', 'designer', 'dr.lee', 'dr.patel', 'nobody'])
      for (let attempt = 1; attempt <= 4; attempt++)
        expect(await login(lab, { socket }, username, `wrong-${attempt}`)).toMatchObject({
          status: 401,
          body: INVALID_LOGIN,
        });
    // The right password of yet another user, from that address, is refused for the window.
    const refused = await login(lab, { socket }, 'admin', 'demo');
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'Too many sign-in attempts. Try again in 15 minute(s).' },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(refused.headers.get('set-cookie')).toBeNull();
    // Another address, the same users: unaffected.
    expect((await login(lab, { socket: '127.0.0.21' }, 'admin', 'demo')).status).toBe(200);
    expect((await login(lab, { socket: '127.0.0.21' }, 'tech', 'demo')).status).toBe(200);
  });

  it('counts an IPv6 client by its /64: other addresses of the prefix share the limit', async () => {
    const prefix = '2001:db8:7:1';
    for (let attempt = 1; attempt <= 20; attempt++)
      expect(
        (await login(proxied, { forwarded: `${prefix}::${attempt.toString(16)}` }, `user${attempt}`, 'wrong'))
          .status,
      ).toBe(401);
    expect((await login(proxied, { forwarded: `${prefix}:ffff:ffff:ffff:ffff` }, 'rep', 'demo')).status).toBe(
      429,
    );
    expect((await login(proxied, { forwarded: '2001:db8:7:2::1' }, 'rep', 'demo')).status).toBe(200);
  });

  it('refuses one username after 30 failures within an hour from any addresses, but not its known browser', async () => {
    // The owner signed in before: this browser holds tech's known-device cookie.
    const owner = deviceCookie(await login(proxied, { forwarded: '198.51.100.200' }, 'tech', 'demo'));
    const other = deviceCookie(await login(proxied, { forwarded: '198.51.100.201' }, 'rep', 'demo'));
    // A botnet: 30 addresses, one guess each (no address and no pair near its own limit).
    for (let attempt = 1; attempt <= 30; attempt++)
      expect(
        (await login(proxied, { forwarded: `198.51.100.${attempt}` }, 'TECH', `guess-${attempt}`)).status,
      ).toBe(401);
    const refused = await login(proxied, { forwarded: '198.51.100.99' }, 'tech', 'demo');
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'Too many sign-in attempts. Try again in 60 minute(s).' },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(59 * 60);
    // Neither another user's cookie nor a made-up one opens the account; its own browser does.
    for (const cookie of [
      other,
      'af_device=made-up-token',
      owner.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')),
    ])
      expect((await login(proxied, { forwarded: '198.51.100.99', cookie }, 'tech', 'demo')).status).toBe(429);
    const ownerAgain = await login(proxied, { forwarded: '198.51.100.99', cookie: owner }, 'tech', 'demo');
    expect(ownerAgain.status).toBe(200);
    // The cookie is renewed, not replaced: the same browser stays known.
    expect(deviceCookie(ownerAgain)).toBe(owner);
    // Other usernames are not affected.
    expect((await login(proxied, { forwarded: '198.51.100.99' }, 'designer', 'demo')).status).toBe(200);
  });

  it('logs every success, failure and refusal with username, address and user agent, never the password', async () => {
    const entries: unknown[] = [];
    const log = jest
      .spyOn(Logger.prototype, 'log')
      .mockImplementation((message) => void entries.push(message));
    const warn = jest
      .spyOn(Logger.prototype, 'warn')
      .mockImplementation((message) => void entries.push(message));
    try {
      const socket = '127.0.0.30';
      expect((await login(lab, { socket }, 'designer', 'demo')).status).toBe(200);
      for (let attempt = 1; attempt <= 6; attempt++)
        await login(lab, { socket }, 'dr.lee', `Secret-guess-${attempt}`);
      const signIns = entries.filter(
        (entry): entry is Record<string, unknown> =>
          typeof entry === 'object' &&
          entry !== null &&
          String((entry as { msg?: string }).msg).startsWith('sign-in'),
      );
      expect(signIns.map((entry) => [entry.msg, entry.username])).toEqual([
        ['sign-in succeeded', 'designer'],
        ...Array.from({ length: 5 }, () => ['sign-in failed', 'dr.lee']),
        ['sign-in refused', 'dr.lee'],
      ]);
      for (const entry of signIns) expect(entry).toMatchObject({ address: socket, userAgent: USER_AGENT });
      expect(JSON.stringify(entries)).not.toMatch(/Secret-guess|"demo"/);
    } finally {
      log.mockRestore();
      warn.mockRestore();
    }
  });
});
