/**
 * My Queue and the printed work ticket (issue 15), in Debian's Chromium against the real backend
 * and database: a Technician at 375 px lands on My Queue, advances cases with one tap (the
 * server's case moves on, the card leaves or moves), sees a case reach their stage live, opens
 * a case and prints its ticket, which must be one page on A4 and on Letter holding the ticket.
 *
 * Run: npm run build -w frontend && npx jest -c test/browser/jest.config.js test/browser/work-queue
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Case, CaseStatus } from '@alignerflow/domain';
import { byUsername, caseAt as roadCaseAt } from '../support/case-road';
import type { ApiClient } from '../support/http';
import { useBrowserApp } from './support/browser-app';
import { screenshotDir, until, waitForCount } from './support/journey';
import { readPdf } from './support/pdf';

jest.setTimeout(180_000);

const MOBILE = { width: 375, height: 740, isMobile: true };
const SHOTS = screenshotDir();

const web = useBrowserApp();
let admin: ApiClient;
let drLee: ApiClient;

async function pageFor(username: string, size: { width?: number; height?: number; isMobile?: boolean }) {
  const { page } = await web.sessions.signedIn(username, size);
  return page;
}

async function serverCase(id: string): Promise<Case> {
  const answer = await admin.get(`/cases/${id}`);
  if (answer.status !== 200) throw new Error(`GET /cases/${id}: ${answer.status}`);
  return answer.body as Case;
}

/** A new case (twelve upper, ten lower sheets) walked the usual road to `status`. */
async function caseAt(patientName: string, status: CaseStatus, dueInDays: number): Promise<string> {
  const due = new Date(Date.now() + dueInDays * 86_400_000).toISOString().slice(0, 10);
  const input = { patientName, deliveryDate: due, upperSheets: 12, lowerSheets: 10 };
  return (await roadCaseAt(byUsername(admin, drLee), status, input)).id;
}

const card = (page: Page, id: string) => page.locator(`.queue-card[data-case-id="${id}"]`);
const queueIds = (page: Page) =>
  page.locator('.queue-card').evaluateAll((cards) => cards.map((item) => item.getAttribute('data-case-id')));

beforeAll(async () => {
  admin = await web.lab.login('admin');
  drLee = await web.lab.login('dr.lee');
});

describe('My Queue at 375 px', () => {
  let tech: Page;
  let checkId: string;

  it('is the Technician’s home: their stage’s cases as cards, soonest due first', async () => {
    checkId = await caseAt('Quinn Checkmark', 'Quality Check', 5);
    tech = await pageFor('tech', MOBILE);
    await tech.getByRole('heading', { level: 1, name: /My Queue/ }).waitFor();
    expect(await tech.getByRole('tab', { name: 'My Queue' }).getAttribute('aria-selected')).toBe('true');
    // The seed's overdue Thermoforming case first, then the new one; nothing of other roles.
    await until('both cards', async () => (await queueIds(tech)).length === 2);
    expect(await queueIds(tech)).toEqual(['CA-2024-004', checkId]);
    const overdue = card(tech, 'CA-2024-004');
    expect(await overdue.getByText('At risk').count()).toBe(1);
    expect(await overdue.getByText('High priority').count()).toBe(1);
    expect(await overdue.getByText('Liam Nguyen').count()).toBe(1);
    expect(await overdue.locator('.badge').textContent()).toBe('Thermoforming');
    expect(await overdue.getByText(/In stage: /).count()).toBe(1);
    // Nothing wider than the phone, and a tap target a thumb can hit.
    expect(
      await tech.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    const box = await overdue.getByRole('button', { name: 'Complete Stage & Advance' }).boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    expect(box!.width).toBeGreaterThan(250);
    await tech.screenshot({ path: join(SHOTS, 'my-queue-375.png'), fullPage: true });

    // The Lab Dashboard is the tab beside it, and back.
    await tech.getByRole('tab', { name: 'Lab Dashboard' }).click();
    await tech.getByRole('heading', { level: 1, name: 'Lab Dashboard' }).waitFor();
    await tech.screenshot({ path: join(SHOTS, 'lab-dashboard-tab-375.png') });
    await tech.getByRole('tab', { name: 'My Queue' }).click();
    await card(tech, checkId).waitFor();
  });

  it('one tap advances: a case leaving the Technician’s stages leaves the queue', async () => {
    await card(tech, checkId).getByRole('button', { name: 'Complete Stage & Advance' }).click();
    await until(
      'the server to move the case',
      async () => (await serverCase(checkId)).status === 'Packaging & Labeling',
    );
    await waitForCount(tech.locator('.queue-card'), 1);
    expect(await queueIds(tech)).toEqual(['CA-2024-004']);
  });

  it('one tap advances within the stages: the card stays with its new status', async () => {
    const overdue = card(tech, 'CA-2024-004');
    await overdue.getByRole('button', { name: 'Complete Stage & Advance' }).click();
    // Thermoforming asks for the material lots used; none is required by default.
    const picker = tech.getByRole('dialog', { name: 'Complete Thermoforming' });
    await picker.getByRole('button', { name: 'Complete Stage' }).click();
    await until(
      'the server to move the case',
      async () => (await serverCase('CA-2024-004')).status === 'Trimming & Polishing',
    );
    await until(
      'the card to show it',
      async () => (await overdue.locator('.badge').textContent()) === 'Trimming & Polishing',
    );
  });

  it('a case reaching the Technician’s stage elsewhere appears without a reload', async () => {
    await tech.evaluate(() => Object.assign(window, { notReloaded: true }));
    const arriving = await caseAt('Rita Arrival', 'Model Printing', 20);
    await until('the live card', async () => (await card(tech, arriving).count()) === 1);
    expect(await queueIds(tech)).toEqual(['CA-2024-004', arriving]);
    expect(await tech.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
  });

  it('a tap on the card opens the case; Print ticket prints one page on A4 and on Letter', async () => {
    await card(tech, 'CA-2024-004')
      .getByRole('button', { name: /Open case CA-2024-004/ })
      .click();
    await tech.getByRole('heading', { level: 1, name: 'Liam Nguyen' }).waitFor();
    await tech.screenshot({ path: join(SHOTS, 'ticket-case-detail-375.png') });
    await printTicketAndCheck(tech, 'CA-2024-004', 'Liam Nguyen', 'ticket-375');
  });
});

describe('My Queue for a Manager and at 1280 px', () => {
  it('is a tab beside the Lab Dashboard, which stays the Manager’s home', async () => {
    const page = await pageFor('admin', { width: 1280, height: 900 });
    await page.getByRole('heading', { level: 1, name: 'Lab Dashboard' }).waitFor();
    await page.getByRole('tab', { name: 'My Queue' }).click();
    await page.getByRole('heading', { level: 1, name: /My Queue/ }).waitFor();
    const expected = ((await admin.get('/work-queue')).body as { id: string }[]).map((item) => item.id);
    await until(
      'the Manager’s queue',
      async () => JSON.stringify(await queueIds(page)) === JSON.stringify(expected),
    );
    expect(expected.length).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: join(SHOTS, 'my-queue-manager-1280.png'), fullPage: true });
  });

  it('prints the ticket from a 1280 px case detail too', async () => {
    const page = await pageFor('designer', { width: 1280, height: 900 });
    await page.getByRole('heading', { level: 1, name: /My Queue/ }).waitFor();
    await card(page, 'CA-2024-001').waitFor();
    await page.screenshot({ path: join(SHOTS, 'my-queue-designer-1280.png'), fullPage: true });
    await card(page, 'CA-2024-001')
      .getByRole('button', { name: /Open case CA-2024-001/ })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Emma Thompson' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'ticket-case-detail-1280.png') });
    await printTicketAndCheck(page, 'CA-2024-001', 'Emma Thompson', 'ticket-1280');
  });
});

describe('the work ticket of a case with long texts', () => {
  it('still prints on one page, the long texts clipped', async () => {
    const longName = `Maximilian Alexander ${'Longname-'.repeat(19)}`.slice(0, 200);
    const id = await caseAt(longName, 'Model Printing', 3);
    await admin.put(`/cases/${id}`, {
      doctorName: `Dr. ${'Verylongdoctorname '.repeat(10)}`.slice(0, 200),
      clinicName: `${'Enormous Clinic Name '.repeat(10)}`.slice(0, 200),
    });
    for (let n = 1; n <= 3; n++) {
      const note = await admin.post(`/cases/${id}/notes`, {
        text: `Note ${n}: ${'word '.repeat(990)}`.slice(0, 5000),
      });
      expect(note.status).toBe(201);
    }
    const page = await pageFor('tech', { width: 1280, height: 900 });
    await card(page, id)
      .getByRole('button', { name: /Open case/ })
      .click();
    await page.getByRole('button', { name: 'Print ticket' }).waitFor();
    await printTicketAndCheck(page, id, longName.slice(0, 40), 'ticket-long');
  });
});

/**
 * Presses Print ticket with window.print recorded (a headless print has no dialog), then prints
 * the page as Chromium would, on A4 and on Letter, and reads the PDFs back. Each printout is its
 * own press: the ticket leaves the page when a print ends (afterprint), as after a real one.
 */
async function printTicketAndCheck(page: Page, id: string, patient: string, shot: string): Promise<void> {
  await page.evaluate(() => {
    const counter = window as unknown as { printed: number };
    counter.printed = 0;
    window.print = () => {
      counter.printed += 1;
    };
  });
  for (const [press, format] of (['A4', 'Letter'] as const).entries()) {
    await page.emulateMedia({ media: 'screen' });
    await page.getByRole('button', { name: 'Print ticket' }).click();
    await until('window.print after the QR is drawn', () =>
      page.evaluate((n) => (window as unknown as { printed: number }).printed === n, press + 1),
    );
    const qrDrawn = await page.evaluate(() => {
      const image = document.querySelector<HTMLImageElement>('.print-sheet .work-ticket__qr');
      return !!image && image.complete && image.naturalWidth > 0;
    });
    expect(qrDrawn).toBe(true);

    await page.emulateMedia({ media: 'print' });
    // In print, only the ticket shows: the app around it is hidden.
    expect(await page.locator('#root').isVisible()).toBe(false);
    expect(await page.locator('.work-ticket').isVisible()).toBe(true);
    if (press === 0)
      await page.screenshot({ path: join(SHOTS, `${shot}-print-preview.png`), fullPage: true });

    const bytes = await page.pdf({ format, printBackground: true });
    writeFileSync(join(SHOTS, `${shot}-${format}.pdf`), bytes);
    const pdf = readPdf(bytes);
    expect({ format, pages: pdf.pages }).toEqual({ format, pages: 1 });
    // Compared without spaces and letter case: the print stylesheet writes some headings in capitals.
    const text = pdf.text.replace(/\s+/g, '').toLowerCase();
    for (const expected of [id, patient, 'Work Ticket', 'Stage checklist', 'Quality Check', 'Last notes']) {
      const found = text.includes(expected.replace(/\s+/g, '').toLowerCase());
      expect({ format, expected, found }).toEqual({ format, expected, found: true });
    }
    // Nothing of the screen around the ticket.
    expect(text.includes('completestage&advance')).toBe(false);
    // The print has ended: the ticket is gone from the page again.
    await waitForCount(page.locator('.print-sheet'), 0);
  }
  await page.emulateMedia({ media: 'screen' });
}
