import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { goHome, screenshotDir, showLabDashboard } from './support/journey';
import { animationsSettled } from './support/browser';
import { useBrowserApp } from './support/browser-app';
import { eventually, offlineCopy, tableCaseIds } from './support/portal';

/**
 * api.md, "Patient data" in the built app: a Manager sees on the case's Access tab a read made by
 * another user, and Settings › Access log; the browser's offline copy is not shown past the
 * session it was saved under, nor after sign-out. Screenshots at 1280 and 375 px.
 */
const web = useBrowserApp();
const PATIENT = 'Sophia Brown';
const CASE_ID = 'CA-2024-077';
const VIEWPORTS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 375, height: 740, isMobile: true }],
] as const;

afterEach(() => web.sessions.closeAll());

async function openCase(page: Page): Promise<void> {
  await goHome(page);
  await showLabDashboard(page);
  await page.getByPlaceholder('Search cases...').fill(PATIENT);
  await page.locator('main').getByText(PATIENT, { exact: true }).first().click();
  await page.getByRole('heading', { level: 1, name: PATIENT, exact: true }).waitFor();
}

describe('access log', () => {
  it.each(VIEWPORTS)("shows a Manager another user's read on the Access tab (%s)", async (_, size) => {
    // dr.lee reads their own case, from outside the browser.
    const drLee = await web.lab.login('dr.lee');
    expect((await drLee.get(`/cases/${CASE_ID}`)).status).toBe(200);

    const { page } = await web.sessions.signedIn('admin', size);
    await openCase(page);
    await page.getByRole('tab', { name: 'Access' }).click();
    const rows = page.getByRole('list', { name: 'Access log' }).getByRole('listitem');
    await rows.first().waitFor();
    const texts = await rows.allInnerTexts();
    expect(
      texts.some((text) => /dr\.lee \(Doctor\) · Viewed case/.test(text) && /from .*127\.0\.0\.1/.test(text)),
    ).toBe(true);
    await page.getByRole('tab', { name: 'Access' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshotDir(), `access-tab-${size.width}.png`) });
  });

  it.each(VIEWPORTS)('lists and filters every access in Settings › Access log (%s)', async (_, size) => {
    expect((await (await web.lab.login('dr.lee')).get(`/cases/${CASE_ID}/history`)).status).toBe(200);
    const { page } = await web.sessions.signedIn('admin', size);
    const mobile = size.width < 600;
    await page
      .getByRole('button', { name: mobile ? 'Open settings panel' : 'Settings', exact: true })
      .click();
    const drawer = page.getByRole('dialog', { name: 'Settings' });
    await drawer.getByRole('button', { name: 'Access log', exact: true }).click();
    await drawer.getByLabel('Username').fill('dr.lee');
    await drawer.getByRole('button', { name: 'Show' }).click();
    const rows = drawer.getByRole('list', { name: 'Access log' }).getByRole('listitem');
    await rows.first().waitFor();
    for (const text of await rows.allInnerTexts()) expect(text).toMatch(/^dr\.lee \(Doctor\)/);
    expect(await drawer.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toMatch(
      /access-log\.csv\?username=dr\.lee$/,
    );
    await animationsSettled(page);
    await page.screenshot({ path: join(screenshotDir(), `access-log-settings-${size.width}.png`) });
  });
});

describe('the offline copy ends with its session', () => {
  /** Signs in, waits for the copy, and checks it is shown offline while the session is valid. */
  async function withOfflineCopy() {
    const opened = await web.sessions.signedIn('admin');
    const { context, page } = opened;
    await eventually(async () => expect(await tableCaseIds(page)).toContain(CASE_ID));
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await eventually(async () => expect((await offlineCopy(page))?.owner).toBe('admin'), 10_000);
    // While the session would still be valid, offline shows the copy (the app's shell from its worker).
    await context.setOffline(true);
    await page.reload();
    await page.getByText(/^Offline — showing data from /).waitFor();
    expect(await tableCaseIds(page)).toContain(CASE_ID);
    await context.setOffline(false);
    await page.reload();
    await page.getByText('Logged in as:').first().waitFor({ state: 'attached' });
    return opened;
  }

  async function expectNoCaseData(page: Page): Promise<void> {
    await page.getByLabel('Username').waitFor();
    expect(await page.getByText(PATIENT).count()).toBe(0);
    expect(await page.getByText(CASE_ID).count()).toBe(0);
    await eventually(async () => expect(await offlineCopy(page)).toBeNull());
  }

  it('is gone after sign-out: offline, the reload shows no case data', async () => {
    const { context, page } = await withOfflineCopy();
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('button', { name: 'Logout' })
      .click();
    await page.getByLabel('Username').waitFor();
    await context.setOffline(true);
    await page.reload();
    // No copy left and no server: the sign-in screen, and no patient.
    await expectNoCaseData(page);
  });

  it("is gone once its session's time is up: offline, the reload shows the sign-in screen", async () => {
    const { context, page } = await withOfflineCopy();
    await context.setOffline(true);
    // The session (30 minutes idle) has ended by the browser's clock.
    await context.clock.install({ time: Date.now() + 31 * 60_000 });
    await page.reload();
    await expectNoCaseData(page);
    await page.screenshot({ path: join(screenshotDir(), 'offline-session-ended-1280.png') });
  });
});
