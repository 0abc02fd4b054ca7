import { createECDH, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { sql, withEnv } from '../support/helpers';
import { startTestApp } from '../support/test-app';
import { signIn } from './support/browser';
import { screenshotDir, until } from './support/journey';
import { useBrowserApp } from './support/browser-app';

/**
 * The notification permission is asked from the 'Enable notifications' button, never by loading
 * the app (Lighthouse: "requests the notification permission on page load"); once granted the
 * browser is subscribed for the user as before. Chromium's own Notification API answers; only
 * the push service behind PushManager.subscribe (a third party, out of reach here) is stubbed.
 */
const PUSH_HOST = 'push.example.com';
const web = useBrowserApp({
  // The stand-in push service's host resolves nowhere here: listed, it skips the public-address check.
  start: (spaDir) => withEnv({ PUSH_ALLOWED_HOSTS: `${PUSH_HOST}:443` }, () => startTestApp({}, { spaDir })),
});
const USER = 'tech';
const ENABLE = 'Enable notifications';

afterEach(() => web.sessions.closeAll());

interface PermissionProbe {
  /** Whether a user gesture was active at each Notification.requestPermission call. */
  requests: boolean[];
  subscribeCalls: number;
}

/** Counts permission requests (and whether a gesture was active) and stands in for the push service. */
async function instrument(context: BrowserContext, endpoint: string): Promise<void> {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
  await context.addInitScript(
    ({ endpoint, keys }) => {
      const probe = { requests: [] as boolean[], subscribeCalls: 0 };
      (window as unknown as { permissionProbe: typeof probe }).permissionProbe = probe;
      const request = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = (async () => {
        probe.requests.push(navigator.userActivation.isActive);
        // The user's answer to the prompt, given by the test (headless Chromium shows none).
        const answer = (window as unknown as { answerPrompt?: () => Promise<void> }).answerPrompt;
        if (answer) await answer();
        return request();
      }) as typeof Notification.requestPermission;
      PushManager.prototype.getSubscription = async () => null;
      PushManager.prototype.subscribe = async function () {
        probe.subscribeCalls += 1;
        return { toJSON: () => ({ endpoint, expirationTime: null, keys }) } as unknown as PushSubscription;
      };
    },
    { endpoint, keys },
  );
}

const probe = (page: Page) =>
  page.evaluate(() => (window as unknown as { permissionProbe: PermissionProbe }).permissionProbe);

const stored = (endpoint: string) =>
  sql(web.lab.databaseUrl, 'SELECT username FROM push_subscriptions WHERE endpoint = $1', [endpoint]);

/** Signed in, the service worker active and the app's start-up effects run. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.getByRole('heading').first().waitFor();
}

describe('Notification permission', () => {
  it.each([
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 375, height: 740, isMobile: true }],
  ])('is asked only from the Enable notifications button, which then subscribes (%s)', async (name, size) => {
    const endpoint = `https://${PUSH_HOST}/send/${name}-${randomBytes(6).toString('hex')}`;
    const { context, page } = await web.sessions.open(size);
    await instrument(context, endpoint);
    await signIn(page, web.lab.baseUrl, USER);
    await settled(page);
    await page.reload();
    await settled(page);

    // Loading the signed-in app (twice) asked nothing and subscribed nothing.
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
    expect(await probe(page)).toEqual({ requests: [], subscribeCalls: 0 });
    expect(await stored(endpoint)).toEqual([]);

    // Below 768 px the header's actions are in its menu.
    const where =
      size.width < 768
        ? page.locator('#header-menu')
        : page.getByRole('navigation', { name: 'Main navigation' });
    if (size.width < 768) await page.getByRole('button', { name: 'Menu' }).click();
    const button = where.getByRole('button', { name: ENABLE });
    await button.waitFor();
    await page.screenshot({ path: join(screenshotDir(), `enable-notifications-${size.width}.png`) });

    // The user says yes to the browser's prompt.
    await page.exposeFunction('answerPrompt', () =>
      context.grantPermissions(['notifications'], { origin: web.lab.baseUrl }),
    );
    await button.click();
    await until('the subscription stored for the user', async () => (await stored(endpoint)).length === 1);
    expect(await stored(endpoint)).toEqual([{ username: USER }]);
    expect(await probe(page)).toEqual({ requests: [true], subscribeCalls: 1 });
    await button.waitFor({ state: 'detached' });
  });

  it('offers no button once granted, and keeps the subscription without asking', async () => {
    const endpoint = `https://${PUSH_HOST}/send/granted-${randomBytes(6).toString('hex')}`;
    const { context, page } = await web.sessions.open();
    await context.grantPermissions(['notifications'], { origin: web.lab.baseUrl });
    await instrument(context, endpoint);
    await signIn(page, web.lab.baseUrl, USER);
    await settled(page);
    await until('the subscription stored for the user', async () => (await stored(endpoint)).length === 1);
    expect((await probe(page)).requests).toEqual([]);
    expect(await page.getByRole('button', { name: ENABLE }).count()).toBe(0);
  });

  it('offers no button once the user has refused', async () => {
    const { context, page } = await web.sessions.open();
    await instrument(context, `https://${PUSH_HOST}/send/never`);
    await signIn(page, web.lab.baseUrl, USER);
    await settled(page);
    const button = page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('button', { name: ENABLE });
    // Headless Chromium refuses a prompt nobody can see: the user's "Block".
    await button.click();
    await button.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => Notification.permission)).toBe('denied');
    await page.reload();
    await settled(page);
    expect(await page.getByRole('button', { name: ENABLE }).count()).toBe(0);
    expect(await probe(page)).toEqual({ requests: [], subscribeCalls: 0 });
  });
});
