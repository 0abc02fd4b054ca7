import { mkdirSync, readFileSync } from 'node:fs';
import type { Invoice } from '@alignerflow/domain';
import type { Page } from 'playwright-core';
import { billingSettled, invoicesOf } from '../support/billing';
import { byUsername, caseAt } from '../support/case-road';
import { readPdf } from '../support/pdf';
import { useBrowserApp } from './support/browser-app';

/**
 * The Billing screen (Managers, Representatives) and a Doctor's Invoices screen in Debian's
 * Chromium against the real backend: a payment recorded from the invoice panel turns it paid;
 * a Doctor downloads an invoice and a statement, each a one-page PDF. Both at 1280 and 375 px.
 */
const web = useBrowserApp();
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/alignerflow-shots';
mkdirSync(SHOTS, { recursive: true });
const MOBILE = { width: 375, height: 740, isMobile: true };
const invoices: Invoice[] = [];

beforeAll(async () => {
  const clients = await Promise.all(
    ['admin', 'rep', 'designer', 'tech', 'dr.lee'].map((name) => web.lab.login(name)),
  );
  const road = byUsername(...clients);
  for (const [price, patientName] of [
    [1100.5, 'Olivia Brown'],
    [980, 'Noah Green'],
  ] as const) {
    const item = await caseAt(road, 'Delivery to Doctor', { price, patientName });
    await billingSettled(web.lab.databaseUrl);
    invoices.push(...(await invoicesOf(clients[0], item.id)));
  }
});

afterEach(() => web.sessions.closeAll());

async function openBilling(page: Page, navigation: string, label: string): Promise<void> {
  await page.getByRole('navigation', { name: navigation }).getByRole('button', { name: label }).click();
  await page.getByRole('heading', { name: label, level: 1 }).waitFor();
  await page.getByRole('table', { name: 'Invoices' }).waitFor();
}

async function noOverflow(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
}

describe('Billing screen', () => {
  it('at 1280 px a Manager records a payment and sees the invoice paid', async () => {
    const { page } = await web.sessions.signedIn('admin');
    await openBilling(page, 'Main navigation', 'Billing');
    await page.locator('.billing-aging__tile--total .tile__value').filter({ hasText: '$' }).waitFor();
    const [invoice] = invoices;
    await page.getByRole('button', { name: `Open invoice ${invoice.number}` }).click();
    const panel = page.getByRole('region', { name: `Invoice ${invoice.number}` });
    await panel.getByText('$1,100.50').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/billing-1280.png`, fullPage: true });

    await panel.getByRole('button', { name: 'Record payment' }).click();
    const dialog = page.getByRole('dialog', { name: `Record payment: ${invoice.number}` });
    expect(await dialog.getByLabel('Amount (USD)').inputValue()).toBe('1100.50');
    await dialog.getByLabel('Amount (USD)').fill('2000');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    // The server's rule, announced in the dialog, which stays open.
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'The amount must be between 0.01 and the balance.' })
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/billing-payment-dialog-1280.png` });
    await dialog.getByLabel('Amount (USD)').fill('1100.50');
    await dialog.getByLabel('Reference (optional)').fill('TX-77');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await dialog.waitFor({ state: 'detached' });
    await panel.locator('.invoice-status', { hasText: 'Paid' }).waitFor();
    expect(await panel.getByTestId('invoice-balance').textContent()).toBe('$0.00');
    await panel.getByText('TX-77', { exact: false }).waitFor();
    const row = page.getByRole('row').filter({ hasText: invoice.number });
    await row.locator('.invoice-status', { hasText: 'Paid' }).waitFor();
    // And the server agrees.
    const admin = await web.lab.login('admin');
    expect((await admin.get(`/invoices/${invoice.number}`)).body).toMatchObject({
      status: 'paid',
      balance: 0,
    });
  });

  it('at 375 px a Manager reaches it from the bottom navigation, nothing wider than the screen', async () => {
    const { page } = await web.sessions.signedIn('admin', MOBILE);
    await openBilling(page, 'Mobile navigation', 'Billing');
    await noOverflow(page);
    await page.getByRole('button', { name: `Open invoice ${invoices[1].number}` }).click();
    await page.getByRole('region', { name: `Invoice ${invoices[1].number}` }).waitFor();
    await noOverflow(page);
    await page.screenshot({ path: `${SHOTS}/billing-375.png`, fullPage: true });
  });
});

describe('a Doctor’s Invoices screen', () => {
  async function download(page: Page, name: string): Promise<Buffer> {
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name }).click(),
    ]);
    return readFileSync((await file.path())!);
  }

  it('at 1280 px downloads an invoice PDF and the month’s statement, one page each', async () => {
    const { page } = await web.sessions.signedIn('dr.lee');
    await openBilling(page, 'Main navigation', 'Invoices');
    await page.screenshot({ path: `${SHOTS}/invoices-1280.png`, fullPage: true });
    const number = invoices[1].number;
    const invoicePdf = await readPdf(await download(page, `Download invoice ${number} as PDF`));
    expect(invoicePdf.pages).toBe(1);
    expect(invoicePdf.text).toContain(`Invoice ${number}`);
    await page.getByText('Closing balance').waitFor();
    const statement = await readPdf(await download(page, 'Statement PDF'));
    expect(statement.pages).toBe(1);
    expect(statement.text).toContain(number);
    expect(statement.text).toContain('Closing balance');
  });

  it('at 375 px lists the invoices as cards', async () => {
    const { page } = await web.sessions.signedIn('dr.lee', MOBILE);
    await openBilling(page, 'Mobile navigation', 'Invoices');
    await page.getByText('Closing balance').waitFor();
    await noOverflow(page);
    await page.screenshot({ path: `${SHOTS}/invoices-375.png`, fullPage: true });
  });
});
