import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { animationsSettled } from './support/browser';
import { useBrowserApp } from './support/browser-app';
import { SEED, eventually } from './support/portal';

/**
 * Each user's notification channels in the built app (Settings → Notifications for a Manager, My
 * Notifications for everyone) and the `#case=` link of the emails, in Debian's Chromium against
 * the real backend.
 */
const web = useBrowserApp();
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/alignerflow-shots';
mkdirSync(SHOTS, { recursive: true });
const VIEWPORTS = [
  ['desktop', { width: 1280, height: 800 }],
  ['mobile', { width: 375, height: 740, isMobile: true }],
] as const;

afterEach(() => web.sessions.closeAll());

async function openSettingsSection(page: Page, mobile: boolean, section: string) {
  await page.getByRole('button', { name: mobile ? 'Open settings panel' : 'Settings', exact: true }).click();
  const drawer = page.getByRole('dialog', { name: 'Settings' });
  await drawer.waitFor();
  await drawer.getByRole('button', { name: section, exact: true }).click();
  await animationsSettled(page);
  return drawer;
}

describe('notification channels', () => {
  it.each(VIEWPORTS)(
    "a Manager switches a user's email off in Settings → Notifications (%s)",
    async (name, viewport) => {
      const admin = await web.lab.login('admin');
      // Both on again whatever an earlier viewport's run left.
      await admin.put('/users/dr.patel', {
        notify: { push: true, email: true },
        email: 'patel@clinic.example',
      });
      const { page } = await web.sessions.signedIn('admin', viewport);
      const drawer = await openSettingsSection(page, name === 'mobile', 'Notifications');
      await drawer.getByRole('heading', { name: 'Notification Channels' }).waitFor();
      const patelEmail = drawer.getByLabel('Email notifications for dr.patel');
      // The list is read after the drawer opens: its switches mean something once dr.patel's row is in.
      await drawer.getByText('patel@clinic.example', { exact: false }).waitFor();
      expect(await patelEmail.isChecked()).toBe(true);
      // The switch's track, as a person taps it (the checkbox itself is visually hidden).
      await patelEmail.locator('xpath=..').click();
      await drawer.getByText('Notification channels saved for dr.patel.').waitFor();
      expect(await patelEmail.isChecked()).toBe(false);
      expect((await admin.get('/users/dr.patel')).body.notify).toEqual({ push: true, email: false });
      await animationsSettled(page);
      await page.screenshot({ path: `${SHOTS}/settings-notification-channels-${name}.png` });
    },
  );

  it.each(VIEWPORTS)(
    'anyone sets their own address and switches in My Notifications (%s)',
    async (name, viewport) => {
      const drLee = await web.lab.login('dr.lee');
      await drLee.put('/users/dr.lee', { notify: { push: true, email: true }, email: null });
      const { page } = await web.sessions.signedIn('dr.lee', viewport);
      // A doctor has no Settings button: My Account is in the header, or its menu on a phone.
      if (name === 'mobile') {
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.locator('#header-menu').getByRole('button', { name: 'My Account' }).click();
      } else {
        await page.getByRole('button', { name: 'My Account' }).click();
      }
      const drawer = page.getByRole('dialog', { name: 'Settings' });
      await animationsSettled(page);
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
      const push = drawer.getByRole('checkbox', { name: /Push notifications/ });
      await eventually(async () => expect(await push.isChecked()).toBe(false));
      await animationsSettled(page);
      await page.screenshot({ path: `${SHOTS}/my-notifications-${name}.png` });
    },
  );

  it("opens the case an email's #case= link names, after signing in", async () => {
    const { page } = await web.sessions.open({ width: 1280, height: 800 });
    await page.goto(`${web.lab.baseUrl}#case=CA-2024-002`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('demo');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText(SEED.patients['CA-2024-002']).first().waitFor();
    await page.getByRole('tab', { name: 'History' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
  });
});
