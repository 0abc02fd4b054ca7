import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { lotQrPayload, type Case } from '@alignerflow/domain';
import { byUsername, caseAt } from '../support/case-road';
import type { ApiClient } from '../support/http';
import { launchBrowser, newPage, signIn } from './support/browser';
import { useBrowserApp } from './support/browser-app';
import { fakeCameraArgs, writeQrY4m } from './support/fake-camera';
import { screenshotDir, until } from './support/journey';

jest.setTimeout(300_000);

const LOT = 'PETG-SCAN-1';

const web = useBrowserApp();
let admin: ApiClient, rep: ApiClient, drLee: ApiClient;
let workDir: string;

const caseOf = async (id: string): Promise<Case> => (await admin.get<Case>(`/cases/${id}`)).body;

async function openCase(page: Page, id: string): Promise<void> {
  await page.goto(`${web.lab.baseUrl}#case=${id}`);
  await page.getByText(id).first().waitFor();
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'af-devices-'));
  [admin, rep, drLee] = await Promise.all(['admin', 'rep', 'dr.lee'].map((name) => web.lab.login(name)));
  for (const lot of [
    { kind: 'sheet', product: 'PETG 0.75 mm', lotNumber: LOT, supplier: 'Sheet Co' },
    { kind: 'resin', product: 'Model resin', lotNumber: 'RES-OLD', expiresOn: '2020-01-31' },
  ]) {
    expect((await admin.post('/materials/lots', lot)).status).toBe(201);
  }
});

afterAll(async () => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('devices in the app', () => {
  it('a Technician at 375 px completes Thermoforming from My Queue, the lot read from its label by the camera', async () => {
    const item = await caseAt(byUsername(admin, drLee), 'Thermoforming', { patientName: 'Scan Lot Patient' });
    const video = join(workDir, 'lot.y4m');
    writeQrY4m(video, lotQrPayload(LOT));
    const cameraBrowser = await launchBrowser(fakeCameraArgs(video));
    try {
      const { page } = await newPage(cameraBrowser, { width: 375, height: 812, isMobile: true });
      await signIn(page, web.lab.baseUrl, 'tech');
      const card = page.locator(`li[data-case-id="${item.id}"]`);
      await card.getByRole('button', { name: 'Complete Stage & Advance' }).click();
      const picker = page.getByRole('dialog', { name: 'Complete Thermoforming' });
      await picker.waitFor();
      // The register is offered, but not the expired lot.
      const options = picker.locator('option', { hasText: LOT });
      await until('the register in the picker', async () => (await options.count()) === 1);
      expect(await picker.locator('option', { hasText: 'RES-OLD' }).count()).toBe(0);
      await picker.getByRole('button', { name: 'Scan lot label' }).click();
      await picker.getByText(`Lot ${LOT} added.`).waitFor({ timeout: 30_000 });
      await picker.locator('.mt-chip', { hasText: LOT }).waitFor();
      await until('the camera to be released', async () => (await page.locator('video').count()) === 0);
      await picker.getByLabel('Machine (optional)').fill('Biostar 2');
      await page.screenshot({ path: join(screenshotDir(), 'lot-picker-375.png') });
      await picker.getByRole('button', { name: 'Complete Stage' }).click();
      await picker.waitFor({ state: 'detached' });
      const after = await until('the advance', async () => {
        const current = await caseOf(item.id);
        return current.status === 'Trimming & Polishing' && current;
      });
      expect(after.stageRecords?.at(-1)).toMatchObject({
        status: 'Thermoforming',
        by: 'tech',
        lots: [LOT],
        machine: 'Biostar 2',
      });
    } finally {
      await cameraBrowser.close();
    }
  });

  it('a Representative ships a case from its screen', async () => {
    const item = await caseAt(byUsername(admin, drLee), 'Packaging & Labeling', { patientName: 'Ship Me' });
    const { page } = await web.sessions.signedIn('rep');
    await openCase(page, item.id);
    const panel = page.getByRole('region', { name: 'Device record' });
    await panel.getByText('Not shipped yet.').waitFor();
    await panel.getByRole('button', { name: 'Ship' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ship case' });
    await dialog.getByLabel('Carrier').selectOption('fedex');
    await dialog.getByLabel('Tracking number').fill('7712 3456 7890');
    await page.screenshot({ path: join(screenshotDir(), 'ship-dialog-1280.png') });
    await dialog.getByRole('button', { name: 'Record shipment' }).click();
    await dialog.waitFor({ state: 'detached' });
    await panel.getByRole('link', { name: 'Track with FedEx' }).waitFor();
    expect((await caseOf(item.id)).shipments).toEqual([
      expect.objectContaining({ carrier: 'fedex', trackingNumber: '7712 3456 7890', by: 'rep' }),
    ]);
    await page.screenshot({ path: join(screenshotDir(), 'device-panel-1280.png'), fullPage: true });
    expect((await rep.post(`/cases/${item.id}/advance`, { fromStatus: 'Packaging & Labeling' })).status).toBe(
      200,
    );
    (globalThis as { shippedCaseId?: string }).shippedCaseId = item.id;
  });

  it.each([
    [375, 'fedex', '7712 3456 7890', 'FedEx'],
    [1280, 'ups', '1Z999AA10123456784', 'UPS'],
  ])(
    'the doctor at %i px sees the tracking link and presses Received',
    async (width, carrier, number, name) => {
      const item = await caseAt(byUsername(admin, drLee), 'Delivery to Doctor', {
        patientName: `Doctor View ${width}`,
      });
      expect(
        (await rep.post(`/cases/${item.id}/shipments`, { carrier, trackingNumber: number })).status,
      ).toBe(200);
      const { page } = await web.sessions.signedIn('dr.lee', { width, height: 900, isMobile: width < 600 });
      await openCase(page, item.id);
      const panel = page.getByRole('region', { name: 'Device record' });
      const link = panel.getByRole('link', { name: `Track with ${name}` });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe((await caseOf(item.id)).shipments?.[0].trackingUrl);
      expect(await link.getAttribute('target')).toBe('_blank');
      await page.screenshot({ path: join(screenshotDir(), `doctor-tracking-${width}.png`), fullPage: true });
      await panel.getByRole('button', { name: 'Received' }).click();
      await panel
        .getByRole('status')
        .filter({ hasText: /^\s*Received / })
        .waitFor();
      expect((await caseOf(item.id)).receivedAt).toEqual(expect.any(String));
      await until(
        'the button to leave',
        async () => (await panel.getByRole('button', { name: 'Received' }).count()) === 0,
      );
    },
  );
});
