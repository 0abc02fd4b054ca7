import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { caseAt } from '../support/case-road';
import { sql } from '../support/helpers';
import { useBrowserApp } from './support/browser-app';
import { goHome, screenshotDir, showLabDashboard } from './support/journey';

/**
 * api.md "Patient data" in the built app: a Manager erases a completed case from its screen,
 * giving a reason and confirming it is them (step-up); the case then shows "Erased patient".
 * Screenshots at 1280 and 375 px.
 */
const web = useBrowserApp();
const VIEWPORTS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 375, height: 740, isMobile: true }],
] as const;

afterEach(() => web.sessions.closeAll());

const shoot = (page: Page, name: string, width: number) =>
  page.screenshot({ path: join(screenshotDir(), `erasure-${name}-${width}.png`) });

describe('erasing a case', () => {
  it.each(VIEWPORTS)(
    'a Manager erases a completed case from its screen, with step-up (%s)',
    async (_, size) => {
      const patient = `Erasable Patient ${size.width}`;
      const clients = Object.fromEntries(
        await Promise.all(
          ['admin', 'dr.lee'].map(async (name) => [name, await web.lab.login(name)] as const),
        ),
      );
      const { id } = await caseAt(clients, 'Completed', { patientName: patient });
      expect(
        (await clients.admin.post(`/cases/${id}/notes`, { text: 'Mentions the patient by name' })).status,
      ).toBe(201);

      const { page } = await web.sessions.signedIn('admin', size);
      await goHome(page);
      await showLabDashboard(page);
      await page.getByPlaceholder('Search cases...').fill(patient);
      // A table on a wide screen, cards on a phone: the patient's name opens the case either way.
      await page.locator('main').getByText(patient, { exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: patient, exact: true }).waitFor();
      // The sign-in proved the user just now: make that proof older than the step-up window.
      await sql(web.lab.databaseUrl, `UPDATE sessions SET proved_at = now() - interval '11 minutes'`);

      await page.getByRole('button', { name: 'Erase patient data' }).click();
      const ask = page.getByRole('dialog', { name: `Erase the patient data of ${id}?` });
      await ask.getByLabel('Reason').fill('The patient asked for erasure in writing');
      await shoot(page, 'dialog', size.width);
      await ask.getByRole('button', { name: 'Erase for good' }).click();

      const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
      await confirm.getByLabel('Your password').fill('demo');
      await confirm.getByRole('button', { name: 'Confirm' }).click();

      await page.getByRole('heading', { level: 1, name: 'Erased patient', exact: true }).waitFor();
      await page.getByText(/^Patient data erased on .* by admin\.$/).waitFor();
      expect(await page.getByRole('button', { name: 'Erase patient data' }).count()).toBe(0);
      await page.getByRole('heading', { level: 1 }).scrollIntoViewIfNeeded();
      await shoot(page, 'done', size.width);

      const [{ patient_name: stored }] = await sql(
        web.lab.databaseUrl,
        `SELECT data->>'patientName' AS patient_name FROM case_view WHERE id = $1`,
        [id],
      );
      expect(stored).toBe('Erased patient');
      expect(
        (await clients.admin.get(`/cases/${id}`)).body.notes.map((note: { text: string }) => note.text),
      ).toContain('[erased]');
    },
  );

  it.each(VIEWPORTS)(
    'shows the retention setting under Settings › Backup & Restore (%s)',
    async (_, size) => {
      const { page } = await web.sessions.signedIn('admin', size);
      await page
        .getByRole('button', { name: size.width < 600 ? 'Open settings panel' : 'Settings', exact: true })
        .click();
      const drawer = page.getByRole('dialog', { name: 'Settings' });
      await drawer.getByRole('button', { name: 'Backup & Restore', exact: true }).click();
      const field = drawer.getByLabel('Erase completed cases after (years)');
      await field.fill('10');
      await drawer
        .getByRole('form', { name: 'Data retention' })
        .getByRole('button', { name: 'Save' })
        .click();
      await page.getByText('Retention saved.').first().waitFor();
      expect((await (await web.lab.login('admin')).get('/settings/retention')).body).toEqual({
        eraseAfterYears: 10,
      });
      await field.scrollIntoViewIfNeeded();
      await shoot(page, 'retention', size.width);
    },
  );
});
