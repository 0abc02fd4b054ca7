import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { heldBackSince } from '../../support/sse';

/** Where browser tests put their screenshots (SCREENSHOT_DIR, else a folder in the temp dir). */
export function screenshotDir(): string {
  const dir = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'alignerflow-screens');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Polls until `check` returns a value that is not undefined/false, or fails with `what`. What a
 * page shows of another user's change comes over the live stream, which another run's long
 * transaction on a shared server holds back: the wait is then extended, not failed.
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
): Promise<T> {
  const started = Date.now();
  let end = started + timeoutMs;
  let last: unknown;
  for (;;) {
    if (Date.now() >= end) {
      const holder = await heldBackSince(started);
      if (!holder) break;
      console.warn(`Still waiting for ${what}: a long transaction (${holder}) holds readers back.`);
      end = Date.now() + timeoutMs;
    }
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** Waits until the locator matches exactly `count` elements. */
export function waitForCount(locator: Locator, count: number, timeoutMs = 15_000): Promise<true> {
  return until(`${count} × ${String(locator)}`, async () => (await locator.count()) === count, timeoutMs);
}

/** Fails with the element's description when a condition on the page does not hold. */
export async function expectText(locator: Locator, text: string): Promise<void> {
  await locator.waitFor();
  const actual = (await locator.innerText()).trim();
  if (actual !== text) throw new Error(`expected "${text}", got "${actual}"`);
}

/** Back to the role's dashboard through the brand button. */
export async function goHome(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Go to dashboard' }).click();
}

/**
 * Shows the Lab Dashboard: a Manager's home; for Technicians, Designers and Representatives,
 * whose home is My Queue, the tab beside it.
 */
export async function showLabDashboard(page: Page): Promise<void> {
  const tab = page.getByRole('tab', { name: 'Lab Dashboard' });
  await tab.waitFor();
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await page.getByRole('heading', { level: 1, name: 'Lab Dashboard' }).waitFor();
}

/** Opens a case from the Lab Dashboard's table (search, then the row). */
export async function openFromLabDashboard(page: Page, patient: string): Promise<void> {
  await goHome(page);
  await showLabDashboard(page);
  await page.getByPlaceholder('Search cases...').fill(patient);
  await page.getByRole('table', { name: 'All Cases' }).getByText(patient, { exact: true }).click();
  await page.getByRole('heading', { level: 1, name: patient, exact: true }).waitFor();
}

/** Opens a case from the Doctor Portal's cards. */
export async function openFromDoctorPortal(page: Page, patient: string): Promise<void> {
  await goHome(page);
  await page.locator('.doctor-card__open', { hasText: patient }).click();
}
