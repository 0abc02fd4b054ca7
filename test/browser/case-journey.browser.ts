/**
 * The case journey end to end, in Debian's Chromium against the real backend and database
 * (issue 6, "Tests"): a doctor creates a case with payment, photos and an STL file; a manager
 * approves it; a designer saves the simulation links; the doctor approves the plan; technicians
 * and a representative advance it to Completed; the doctor starts a stage on the Aligner Staging
 * screen and another by scanning its QR code through the real scanner (Chromium's fake camera
 * fed with a video of the QR). Plus the refusal paths: wrong role, held case, camera denied.
 *
 * Run: npm run build -w frontend && npx jest -c test/browser/jest.config.js test/browser/case-journey
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import QRCode from 'qrcode';
import type { Page } from 'playwright-core';
import { CASE_TEXTS, addDays, stagePayload, type Case } from '@alignerflow/domain';
import type { ApiClient } from '../support/http';
import { launchBrowser, newPage, signIn } from './support/browser';
import { useBrowserApp } from './support/browser-app';
import { fakeCameraArgs, writeQrY4m } from './support/fake-camera';
import {
  expectText,
  goHome,
  openFromDoctorPortal,
  openFromLabDashboard,
  screenshotDir,
  until,
  waitForCount,
} from './support/journey';

jest.setTimeout(300_000);

const ASCII_STL = Buffer.from(
  [
    'solid upper',
    'facet normal 0 0 1',
    ' outer loop',
    '  vertex 0 0 0',
    '  vertex 1 0 0',
    '  vertex 0 1 0',
    ' endloop',
    'endfacet',
    'endsolid upper',
    '',
  ].join('\n'),
);

const HOLD_TEXT = CASE_TEXTS.onHold;
const WRONG_ROLE_TEXT = CASE_TEXTS.onlyCompletedBy(['Representative', 'Manager']);

const web = useBrowserApp();

/**
 * Waits as `wait` does; when it fails, says what the page showed instead (its toasts, the
 * scanner's text, its console) and keeps a screenshot, so a missed camera scan can be told from
 * a refused one.
 */
async function explainIfMissed(page: Page, name: string, wait: () => Promise<void>): Promise<void> {
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
  try {
    await wait();
  } catch (error) {
    const toasts = await page.locator('.toast').allInnerTexts();
    const dialogs = await page.getByRole('dialog').allInnerTexts();
    await page.screenshot({ path: join(screenshotDir(), `${name}-failed.png`) });
    throw new Error(
      `${(error as Error).message}\ntoasts: ${JSON.stringify(toasts)}\ndialogs: ${JSON.stringify(dialogs)}\n` +
        `console: ${JSON.stringify(consoleLines.slice(-20))}`,
      { cause: error },
    );
  }
}
let workDir: string;
const patient = `Journey Patient ${process.pid}`;
let caseId = '';
let doctorApi: ApiClient;

async function pageFor(username: string, size: { width?: number; height?: number } = {}): Promise<Page> {
  const { page } = await web.sessions.signedIn(username, size);
  return page;
}

async function theCase(): Promise<Case> {
  const answer = await doctorApi.get(`/cases/${caseId}`);
  if (answer.status !== 200) throw new Error(`GET /cases/${caseId}: ${answer.status}`);
  return answer.body as Case;
}

function statusIs(status: string, onHold = false) {
  return until(`case ${caseId} at ${status}${onHold ? ' (held)' : ''}`, async () => {
    const item = await theCase();
    return item.status === status && item.onHold === onHold && item;
  });
}

/** Presses 'Complete Stage & Advance' and waits until the case (and the page) moved on. */
async function advance(page: Page, from: string, to: string): Promise<void> {
  const button = page.getByRole('button', { name: 'Complete Stage & Advance' });
  await until(`advance enabled at ${from}`, () => button.isEnabled());
  await button.click();
  // Printing and thermoforming ask for the material lots used; none is required by default.
  if (from === 'Model Printing' || from === 'Thermoforming') {
    await page
      .getByRole('dialog', { name: `Complete ${from}` })
      .getByRole('button', { name: 'Complete Stage' })
      .click();
  }
  await statusIs(to);
  await until(`the page to show ${to}`, async () => !(await page.getByText(`Completes ${from} and`).count()));
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'af-journey-'));
  doctorApi = await web.lab.login('dr.lee');
});

afterAll(async () => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the case journey', () => {
  let doctor: Page;

  it('a doctor creates a case: wizard with an STL file, 2 photos and the $50.00 payment', async () => {
    doctor = await pageFor('dr.lee');
    await doctor.getByRole('button', { name: 'New Case' }).click();
    const wizard = doctor.getByRole('dialog', { name: 'New Clear Aligner Case' });
    const next = () => wizard.getByRole('button', { name: 'Next' }).click();
    const heading = (name: string) => wizard.getByRole('heading', { level: 3, name }).waitFor();

    // Required fields are refused with the shared rule's messages.
    await wizard.getByLabel('Doctor Name').fill('');
    await next();
    await wizard.getByText('Patient name is required.').waitFor();
    await wizard.getByText('Clinic name is required.').waitFor();

    await wizard.getByLabel('Patient Name').fill(patient);
    await wizard.getByLabel('Doctor Name').fill('Dr. Lee');
    await wizard.getByLabel('Clinic Name').fill('Journey Dental');
    await wizard.getByLabel('High').check();
    const dueDate = await wizard.getByLabel('Due Date').inputValue();
    await next();

    await heading('Patient Details');
    await wizard.getByLabel('Treatment Plan Notes').fill('Close the upper midline gap.');
    await wizard.getByLabel('Case Price ($)').fill('1450');
    await wizard.getByLabel('Upper Sheets').fill('20');
    await wizard.getByLabel('Lower Sheets').fill('18');
    await next();

    await heading('STL Files');
    await wizard
      .getByLabel('Upper', { exact: true })
      .setInputFiles({ name: 'upper.stl', mimeType: 'model/stl', buffer: ASCII_STL });
    await waitForCount(wizard.getByText(/^Uploaded/), 1);
    await next();

    await heading('Photos');
    for (const n of [1, 2]) {
      const photo = await QRCode.toBuffer(`intra-oral photo ${n}`, { width: 200 });
      await wizard
        .getByLabel(`Photo ${n}`, { exact: true })
        .setInputFiles({ name: `photo-${n}.png`, mimeType: 'image/png', buffer: photo });
    }
    await waitForCount(wizard.getByText(/^Uploaded/), 2);
    await doctor.screenshot({ path: join(screenshotDir(), 'wizard-photos-1280.png') });
    await next();

    // Payment: $50.00, simulated for 2.5 s with progress, then Review by itself.
    await heading('Payment');
    await wizard.getByText('$50.00', { exact: true }).waitFor();
    const paid = Date.now();
    await wizard.getByRole('button', { name: 'Pay $50.00' }).click();
    await wizard.getByText('Processing payment...').waitFor();
    await heading('Review');
    const elapsed = Date.now() - paid;
    expect(elapsed).toBeGreaterThanOrEqual(2400);
    await wizard.getByText('$50.00 · Payment complete').waitFor();
    for (const name of ['upper.stl', 'photo-1.png', 'photo-2.png']) await wizard.getByText(name).waitFor();

    await wizard.getByRole('button', { name: 'Submit Case' }).click();
    await wizard.waitFor({ state: 'detached' });
    // The new case is selected and shown.
    await doctor.getByRole('heading', { level: 1, name: patient, exact: true }).waitFor();

    const created = ((await doctorApi.get('/cases')).body as Case[]).find((c) => c.patientName === patient);
    expect(created).toBeDefined();
    caseId = created!.id;
    expect(created).toMatchObject({
      status: 'Pending Approval',
      doctorName: 'Dr. Lee',
      clinicName: 'Journey Dental',
      priority: 'High',
      assignedDoctorUsername: 'dr.lee',
      deliveryDate: dueDate,
      treatmentPlanNotes: 'Close the upper midline gap.',
      price: 1450,
      upperSheets: 20,
      lowerSheets: 18,
      fee: { amount: 50, currency: 'USD' },
    });
    expect(dueDate).toBe(addDays(created!.createdDate, 14));
    expect(created!.files.map((file) => [file.type, file.name])).toEqual([
      ['STL', 'upper.stl'],
      ['Photo', 'photo-1.png'],
      ['Photo', 'photo-2.png'],
    ]);
    // The stored files are served to the doctor.
    const stl = await doctorApi.get(created!.files[0].url.replace(/^.*\/api/, ''));
    expect(stl.status).toBe(200);
  });

  it('a manager approves it with a doctor', async () => {
    const manager = await pageFor('admin');
    await openFromLabDashboard(manager, patient);
    await manager.getByLabel('Assign Doctor', { exact: true }).selectOption('dr.lee');
    await manager.getByRole('button', { name: 'Approve & Activate' }).click();
    await statusIs('Digital Planning');
  });

  it('a designer saves the simulation links and completes Digital Planning', async () => {
    const designer = await pageFor('designer');
    await openFromLabDashboard(designer, patient);
    await designer
      .getByLabel('Simulation Video URL', { exact: true })
      .fill('https://example.com/simulation.mp4');
    await designer
      .getByLabel('External Simulation Link', { exact: true })
      .fill('https://example.com/viewer/123');
    await designer.getByRole('button', { name: 'Save Links' }).click();
    await until(
      'links saved',
      async () => (await theCase()).simulationExternalLink === 'https://example.com/viewer/123',
    );
    await advance(designer, 'Digital Planning', 'Doctor Approval');
  });

  it('the doctor approves the treatment plan', async () => {
    await openFromDoctorPortal(doctor, patient);
    await doctor.getByRole('button', { name: 'Approve & Continue to Manufacturing' }).click();
    await statusIs('Model Printing');
  });

  it('a technician shows the case QR (taking the stage), advances to Packaging & Labeling and is refused there', async () => {
    const technician = await pageFor('tech');
    await openFromLabDashboard(technician, patient);

    await technician.getByRole('button', { name: 'QR Code', exact: true }).click();
    const qr = technician.getByRole('dialog', { name: 'Case QR Code' });
    await qr.getByRole('img', { name: `QR code of case ${caseId}` }).waitFor();
    await qr.getByText(patient).waitFor();
    const [download] = await Promise.all([
      technician.waitForEvent('download'),
      qr.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`qrcode-${caseId}.png`);
    await technician.screenshot({ path: join(screenshotDir(), 'case-qr-1280.png') });
    await qr.getByRole('button', { name: 'Close' }).first().click();
    const assigned = await until('technician self-assigned', async () => {
      const item = await theCase();
      return item.assignedTechnicians.includes('tech') && item;
    });
    expect(assigned.alignerWorkflow.find((step) => step.name === 'Model Printing')?.assignedTo).toBe('tech');

    await advance(technician, 'Model Printing', 'Thermoforming');
    await advance(technician, 'Thermoforming', 'Trimming & Polishing');
    await advance(technician, 'Trimming & Polishing', 'Quality Check');
    await advance(technician, 'Quality Check', 'Packaging & Labeling');

    // Wrong role: Packaging & Labeling belongs to Representatives and Managers.
    await technician.getByText(WRONG_ROLE_TEXT).waitFor();
    expect(await technician.getByRole('button', { name: 'Complete Stage & Advance' }).isDisabled()).toBe(
      true,
    );
  });

  it('a held case cannot be advanced; once resumed a representative completes it', async () => {
    const manager = await pageFor('admin');
    await openFromLabDashboard(manager, patient);
    await manager.getByRole('button', { name: 'Hold', exact: true }).click();
    await statusIs('Packaging & Labeling', true);

    const representative = await pageFor('rep');
    await openFromLabDashboard(representative, patient);
    await until(
      'the hold text twice (banner and guidance)',
      async () => (await representative.getByText(HOLD_TEXT).count()) >= 2,
    );
    expect(await representative.getByRole('button', { name: 'Complete Stage & Advance' }).isDisabled()).toBe(
      true,
    );

    await manager.getByRole('button', { name: 'Resume', exact: true }).click();
    await statusIs('Packaging & Labeling');
    // The representative's screen follows live.
    await advance(representative, 'Packaging & Labeling', 'Delivery to Doctor');
    await advance(representative, 'Delivery to Doctor', 'Completed');
    const completed = await theCase();
    expect(completed.staging).toHaveLength(20);
    expect(completed.stageWearTimeInDays).toBe(15);

    // The patient's printable sheet of stage QR codes.
    await manager.getByRole('button', { name: 'Stage QRs', exact: true }).click();
    const sheet = manager.getByRole('dialog', { name: 'Aligner Stage QR Codes' });
    await sheet.getByText('Stage 20 / 20').waitFor();
    await waitForCount(sheet.getByRole('img'), 20);
    await sheet.getByText(patient).waitFor();
    expect(await sheet.getByRole('button', { name: 'Print' }).isEnabled()).toBe(true);
    await manager.screenshot({ path: join(screenshotDir(), 'stage-qrs-1280.png') });
  });

  it('the doctor follows the aligner staging and starts stage 1', async () => {
    await goHome(doctor);
    await doctor.locator('.doctor-card__open', { hasText: patient }).getByText('View Staging').click();
    await doctor.getByRole('heading', { level: 1, name: `${patient} Aligner Staging` }).waitFor();
    await doctor.getByText('Next up is Stage 1. Keep up the great work!').waitFor();
    await doctor.getByRole('img', { name: '0% complete' }).waitFor();
    await doctor.getByText('0 / 20').waitFor();
    await doctor.getByText('300 days').waitFor();
    await waitForCount(doctor.locator('.stage-list > li'), 20);

    const stage1 = doctor.getByRole('listitem', { name: 'Stage 1', exact: true });
    await stage1.getByRole('button', { name: 'Start Stage' }).click();
    await stage1.getByRole('button', { name: 'Mark as Completed' }).waitFor();
    await stage1.getByText('15 days remaining').waitFor();
    expect((await theCase()).staging[0].status).toBe('In Progress');

    await doctor.screenshot({ path: join(screenshotDir(), 'staging-1280.png'), fullPage: true });
    const { page: narrow } = await web.sessions.open({ width: 375, height: 812, isMobile: true });
    await signIn(narrow, web.lab.baseUrl, 'dr.lee');
    await narrow.locator('.doctor-card__open', { hasText: patient }).click();
    await narrow.getByRole('heading', { level: 1, name: `${patient} Aligner Staging` }).waitFor();
    await narrow.screenshot({ path: join(screenshotDir(), 'staging-375.png'), fullPage: true });
    await narrow.screenshot({ path: join(screenshotDir(), 'staging-375-top.png') });
  });

  it('the doctor starts stage 2 by scanning its QR code with the camera (real scanner path)', async () => {
    const video = join(workDir, 'stage-2.y4m');
    writeQrY4m(video, stagePayload(caseId, 2));
    const cameraBrowser = await launchBrowser(fakeCameraArgs(video));
    try {
      const { page } = await newPage(cameraBrowser);
      await signIn(page, web.lab.baseUrl, 'dr.lee');
      await openFromDoctorPortal(page, patient);
      await page.getByRole('heading', { level: 1, name: `${patient} Aligner Staging` }).waitFor();
      await page.getByRole('button', { name: 'Scan Aligner Stage' }).click();
      const scanner = page.getByRole('dialog', { name: 'Scan Case QR Code' });
      await scanner.getByText('Point your camera at the QR code on the case file.').waitFor();

      const toast = page.locator('.toast', { hasText: 'Stage Started' });
      await explainIfMissed(page, 'stage-2-scan', () => toast.waitFor({ timeout: 90_000 }));
      await expectText(toast.locator('.toast__text'), 'Stage 2 is start now. Stage 1 completed.');
      await scanner.waitFor({ state: 'detached' });
      await until('the camera to be released', async () => (await page.locator('video').count()) === 0);

      const item = await theCase();
      expect(item.staging.slice(0, 3).map((entry) => entry.status)).toEqual([
        'Completed',
        'In Progress',
        'Not Started',
      ]);
      await page.getByText('Next up is Stage 2. Keep up the great work!').waitFor();
      await page.getByText('1 / 20').waitFor();
      const stage2 = page.getByRole('listitem', { name: 'Stage 2', exact: true });
      await stage2.getByRole('button', { name: 'Mark as Completed' }).waitFor();
      await page.screenshot({ path: join(screenshotDir(), 'staging-after-scan-1280.png'), fullPage: true });

      // The same code again: the stage is already started.
      await page.getByRole('button', { name: 'Scan Aligner Stage' }).click();
      const invalid = page.locator('.toast', { hasText: 'Scan Invalid' });
      await invalid.waitFor({ timeout: 90_000 });
      await expectText(invalid.locator('.toast__text'), 'Stage 2 is already started or completed.');
      await page.screenshot({ path: join(screenshotDir(), 'scanner-1280.png') });
      await scanner.getByRole('button', { name: 'Close' }).last().click();
      await scanner.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => window.location.hash)).toBe('');
    } finally {
      await cameraBrowser.close();
    }
  });

  it('camera denied: the scanner says so and offers typing the code', async () => {
    // A camera exists, but without the fake permission UI the request is denied.
    const deniedBrowser = await launchBrowser(['--use-fake-device-for-media-stream']);
    try {
      const { page } = await newPage(deniedBrowser);
      await signIn(page, web.lab.baseUrl, 'dr.lee');
      await page.getByRole('button', { name: 'Scan Aligner Stage' }).click();
      const scanner = page.getByRole('dialog', { name: 'Scan Case QR Code' });
      await expectText(
        scanner.getByRole('alert'),
        'Camera access was denied. Please enable camera permissions in your browser settings and refresh the page.',
      );
      await page.setViewportSize({ width: 375, height: 812 });
      await page.screenshot({ path: join(screenshotDir(), 'scanner-denied-375.png') });
      // The accessible fallback: the case id typed in finds the case.
      await scanner.getByLabel('QR code text or case ID').fill(caseId);
      await scanner.getByRole('button', { name: 'Look up' }).click();
      await page.locator('.toast', { hasText: 'Case Found' }).waitFor();
      await page.getByRole('heading', { level: 1, name: `${patient} Aligner Staging` }).waitFor();
    } finally {
      await deniedBrowser.close();
    }
  });
});
