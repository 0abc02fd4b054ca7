import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { sql } from '../support/helpers';
import { goHome, screenshotDir, showLabDashboard } from './support/journey';
import { useBrowserApp } from './support/browser-app';

/**
 * The History tab's seal check (tamper evidence, issue 11): a Manager sees the verified mark, and
 * where the trail was changed behind the app's back; other roles see no mark. Screenshots at
 * 1280 and 375 px go to the screenshot folder.
 */
const web = useBrowserApp();
const PATIENT = 'Emma Thompson';
const CASE_ID = 'CA-2024-001';

afterEach(() => web.sessions.closeAll());

/** Opens the case from the dashboard (table or cards, whichever the width shows) and its History tab. */
async function openHistory(page: Page): Promise<void> {
  await goHome(page);
  await showLabDashboard(page);
  await page.getByPlaceholder('Search cases...').fill(PATIENT);
  await page.locator('main').getByText(PATIENT, { exact: true }).first().click();
  await page.getByRole('heading', { level: 1, name: PATIENT, exact: true }).waitFor();
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByRole('list', { name: 'Case History' }).waitFor();
}

describe('History tab seal check', () => {
  it.each([
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 375, height: 740, isMobile: true }],
  ])('shows a Manager the verified mark (%s)', async (name, size) => {
    const { page } = await web.sessions.signedIn('admin', size);
    await openHistory(page);
    const mark = page.locator('.cd-seal--verified');
    // The seed's events are sealed within seconds of the start.
    await mark.waitFor({ timeout: 15_000 });
    expect(await mark.innerText()).toMatch(/^✓ Verified\s+\d+ events? sealed and unchanged\.$/);
    // The viewport, not the full page: a full-page capture paints the phone's fixed header mid-page.
    await page.getByRole('tab', { name: 'History' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshotDir(), `history-verified-${size.width}.png`) });
  });

  it('shows a Manager where the trail no longer matches its seals', async () => {
    const [first] = await sql(
      web.lab.databaseUrl,
      'SELECT global_position::text AS position, data::text AS data FROM events WHERE stream_id = $1 ORDER BY stream_version LIMIT 1',
      [`case-${CASE_ID}`],
    );
    const tamper = (data: string) =>
      sql(
        web.lab.databaseUrl,
        `WITH off AS (SELECT set_config('session_replication_role', 'replica', true))
         UPDATE events SET data = $2::jsonb FROM off WHERE global_position = $1`,
        [first.position, data],
      );
    const { page } = await web.sessions.signedIn('admin');
    await page.getByRole('heading').first().waitFor();
    await tamper(JSON.stringify({ ...JSON.parse(first.data), patientName: 'Someone Else' }));
    try {
      await openHistory(page);
      const alert = page.locator('.cd-seal--broken');
      await alert.waitFor();
      expect(await alert.innerText()).toMatch(
        new RegExp(
          `^⚠ Tampered\\s+The event at log position ${first.position} no longer matches its seal\\.$`,
        ),
      );
      await page.screenshot({ path: join(screenshotDir(), 'history-tampered-1280.png'), fullPage: true });
    } finally {
      await tamper(first.data);
    }
  });

  it('shows no mark to other roles', async () => {
    const { page } = await web.sessions.signedIn('tech');
    await openHistory(page);
    expect(await page.locator('.cd-seal').count()).toBe(0);
  });
});
