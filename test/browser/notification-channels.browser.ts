import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/test-app';
import { launchBrowser } from './support/browser';
import { SEED, Sessions, eventually, snapshotBuiltSpa } from './support/portal';

/**
 * Each user's notification channels in the built app (Settings → Notifications for a Manager, My
 * Notifications for everyone) and the `#case=` link of the emails, in Debian's Chromium against
 * the real backend.
 */
let lab: TestApp;
let browser: Browser;
let spa: Awaited<ReturnType<typeof snapshotBuiltSpa>> | undefined;
const sessions = new Sessions(
  () => browser,
  () => lab.baseUrl,
);
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/alignerflow-shots';
const VIEWPORTS = [
  ['desktop', { width: 1280, height: 800 }],
  ['mobile', { width: 375, height: 740, isMobile: true }],
] as const;

beforeAll(async () => {
  spa = await snapshotBuiltSpa();
  [lab, browser] = await Promise.all([startTestApp({}, { spaDir: spa.dir }), launchBrowser()]);
  mkdirSync(SHOTS, { recursive: true });
});

afterEach(() => sessions.closeAll());

afterAll(async () => {
  await sessions.closeAll();
  await browser?.close();
  await lab?.close();
  spa?.remove();
});

async function openSettingsSection(page: Page, mobile: boolean, section: string) {
  await page.getByRole('button', { name: mobile ? 'Open settings panel' : 'Settings', exact: true }).click();
  const drawer = page.getByRole('dialog', { name: 'Settings' });
  await drawer.waitFor();
  await drawer.getByRole('button', { name: section, exact: true }).click();
  await page.waitForTimeout(400); // the drawer's slide-in
  return drawer;
}

describe('notification channels', () => {
  it.each(VIEWPORTS)(
    "a Manager switches a user's email off in Settings → Notifications (%s)",
    async (name, viewport) => {
      const admin = await lab.login('admin');
      // Both on again whatever an earlier viewport's run left.
      await admin.put('/users/dr.patel', {
        notify: { push: true, email: true },
        email: 'patel@clinic.example',
      });
      const { page } = await sessions.signedIn('admin', viewport);
      const drawer = await openSettingsSection(page, name === 'mobile', 'Notifications');
      await drawer.getByRole('heading', { name: 'Notification Channels' }).waitFor();
      const patelEmail = drawer.getByLabel('Email notifications for dr.patel');
      expect(await patelEmail.isChecked()).toBe(true);
      await drawer.getByText('patel@clinic.example', { exact: false }).waitFor();
      // The switch's track, as a person taps it (the checkbox itself is visually hidden).
      await patelEmail.locator('xpath=..').click();
      await drawer.getByText('Notification channels saved for dr.patel.').waitFor();
      expect(await patelEmail.isChecked()).toBe(false);
      expect((await admin.get('/users/dr.patel')).body.notify).toEqual({ push: true, email: false });
      await page.waitForTimeout(300); // the switch's slide
      await page.screenshot({ path: `${SHOTS}/settings-notification-channels-${name}.png` });
    },
  );

  it.each(VIEWPORTS)(
    'anyone sets their own address and switches in My Notifications (%s)',
    async (name, viewport) => {
      const drLee = await lab.login('dr.lee');
      await drLee.put('/users/dr.lee', { notify: { push: true, email: true }, email: null });
      const { page } = await sessions.signedIn('dr.lee', viewport);
      // A doctor has no Settings button: My Account is in the header, or its menu on a phone.
      if (name === 'mobile') {
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.locator('#header-menu').getByRole('button', { name: 'My Account' }).click();
      } else {
        await page.getByRole('button', { name: 'My Account' }).click();
      }
      const drawer = page.getByRole('dialog', { name: 'Settings' });
      await page.waitForTimeout(400); // the drawer's slide-in
      await drawer.getByRole('heading', { name: 'My Notifications' }).waitFor();
      await drawer.getByText('Add your email address below to receive them.').waitFor();
      await drawer.getByRole('textbox', { name: 'Email address' }).fill('lee@clinic.example');
      await drawer.getByRole('button', { name: 'Save Email' }).click();
      await drawer.getByText('Sent to lee@clinic.example.').waitFor();
      await drawer.getByText('Push notifications', { exact: true }).click();
      await eventually(async () =>
        expect((await drLee.get('/users/dr.lee')).body).toMatchObject({
          email: 'lee@clinic.example',
          notify: { push: false, email: true },
        }),
      );
      expect(await drawer.getByRole('checkbox', { name: /Push notifications/ }).isChecked()).toBe(false);
      await page.waitForTimeout(300); // the switch's slide
      await page.screenshot({ path: `${SHOTS}/my-notifications-${name}.png` });
    },
  );

  it("opens the case an email's #case= link names, after signing in", async () => {
    const { page } = await sessions.open({ width: 1280, height: 800 });
    await page.goto(`${lab.baseUrl}#case=CA-2024-002`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('demo');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText(SEED.patients['CA-2024-002']).first().waitFor();
    await page.getByRole('tab', { name: 'History' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
  });
});
