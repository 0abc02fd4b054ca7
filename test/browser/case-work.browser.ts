/**
 * Case work in Debian's Chromium against the real backend and database: files added to an
 * existing case upload with a progress bar each (throttled through the DevTools protocol so the
 * bar is seen) and join the case, or are cancelled; the plan versions panel lists two versions
 * newest first with the doctor's decision and comment; a Manager orders a remake of a completed
 * case, the new case opens, and the two link to each other and to the dashboard's badge.
 *
 * Run: npm run build -w frontend && npx jest -c test/browser/jest.config.js test/browser/case-work
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Case } from '@alignerflow/domain';
import { byUsername, createCase, walkCase } from '../support/case-road';
import type { ApiClient } from '../support/http';
import { useBrowserApp } from './support/browser-app';
import { openFromDoctorPortal, openFromLabDashboard, screenshotDir, until } from './support/journey';

jest.setTimeout(240_000);

const web = useBrowserApp();
let admin: ApiClient, designer: ApiClient, tech: ApiClient, rep: ApiClient, drLee: ApiClient;
const tag = process.pid;
const uploadPatient = `Upload Patient ${tag}`;
const planPatient = `Plan Patient ${tag}`;
let uploadCaseId = '';
let planCaseId = '';

/** A PDF of about `bytes` bytes: the server checks the %PDF- signature. */
const pdf = (bytes: number) =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(bytes, 0x20), Buffer.from('\n%%EOF\n')]);

async function pageFor(username: string, width = 1280): Promise<Page> {
  const { page } = await web.sessions.signedIn(username, { width, height: width < 600 ? 800 : 900 });
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshotDir(), `case-work-${name}.png`), fullPage: true });
}

/** Uploads go out at about 100 kB/s, so a file's progress bar stays on screen for a while. */
async function throttleUploads(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 100 * 1024,
  });
}

/** A case `client` created (two sheets an arch), approved: at Digital Planning. */
async function created(client: ApiClient, patientName: string): Promise<string> {
  const { id } = await createCase(client, { patientName, upperSheets: 2, lowerSheets: 2 });
  await walkCase(byUsername(admin, drLee), id, 'Digital Planning');
  return id;
}

async function ok(answer: Promise<{ status: number; body: unknown }>, what: string) {
  const { status, body } = await answer;
  if (status >= 300) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
}

async function caseOf(id: string): Promise<Case> {
  return (await admin.get(`/cases/${id}`)).body as Case;
}

beforeAll(async () => {
  [admin, designer, tech, rep, drLee] = await Promise.all(
    ['admin', 'designer', 'tech', 'rep', 'dr.lee'].map((user) => web.lab.login(user)),
  );
  uploadCaseId = await created(drLee, uploadPatient);
  // Two plans: the first sent back with a comment, the second approved; then made and delivered.
  planCaseId = await created(drLee, planPatient);
  const id = planCaseId;
  await ok(
    designer.put(`/cases/${id}/simulation`, {
      simulationVideoUrl: 'https://sim.example/v1.mp4',
      simulationExternalLink: 'https://viewer.example/v1',
    }),
    'links v1',
  );
  await ok(designer.post(`/cases/${id}/advance`), 'submit v1');
  await ok(drLee.post(`/cases/${id}/request-changes`, { comment: 'Less tipping on tooth 21' }), 'changes');
  await ok(
    designer.put(`/cases/${id}/simulation`, {
      simulationVideoUrl: 'https://sim.example/v2.mp4',
      simulationExternalLink: '',
    }),
    'links v2',
  );
  await ok(designer.post(`/cases/${id}/advance`), 'submit v2');
  await ok(drLee.post(`/cases/${id}/doctor-approve`), 'approve v2');
  for (const client of [tech, tech, tech, tech, rep, rep])
    await ok(client.post(`/cases/${id}/advance`), 'advance');
});

describe('case work in the browser', () => {
  it('adds a file with a progress bar; it joins the case; Cancel stops another', async () => {
    const page = await pageFor('dr.lee');
    await openFromDoctorPortal(page, uploadPatient);
    await page.getByRole('heading', { level: 1, name: uploadPatient, exact: true }).waitFor();
    await throttleUploads(page);

    const input = page.getByLabel('Files to add to the case');
    await input.setInputFiles({ name: 'referral.pdf', mimeType: 'application/pdf', buffer: pdf(400_000) });
    const bar = page.getByRole('progressbar', { name: 'referral.pdf upload progress' });
    await bar.waitFor();
    await page.getByRole('button', { name: 'Cancel the upload of referral.pdf' }).waitFor();
    await shot(page, 'uploading-1280');
    // The file joins the case: in the panel and on the server.
    await page.locator('.cd-file__name', { hasText: 'referral.pdf' }).waitFor({ timeout: 60_000 });
    await bar.waitFor({ state: 'detached' });
    expect((await caseOf(uploadCaseId)).files.map((file) => file.name)).toEqual(['referral.pdf']);

    await input.setInputFiles({ name: 'cancelled.pdf', mimeType: 'application/pdf', buffer: pdf(2_000_000) });
    await page.getByRole('progressbar', { name: 'cancelled.pdf upload progress' }).waitFor();
    await page.getByRole('button', { name: 'Cancel the upload of cancelled.pdf' }).click();
    await page
      .getByRole('progressbar', { name: 'cancelled.pdf upload progress' })
      .waitFor({ state: 'detached' });
    expect((await caseOf(uploadCaseId)).files.map((file) => file.name)).toEqual(['referral.pdf']);
    expect(await page.locator('.cd-file__name', { hasText: 'cancelled.pdf' }).count()).toBe(0);

    // A file the server refuses keeps its text beside it.
    await input.setInputFiles({
      name: 'fake.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('not a pdf'),
    });
    await page
      .locator('.cw-upload', { hasText: 'fake.pdf' })
      .getByText('Documents must be PDF files.')
      .waitFor();
    await shot(page, 'failed-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator('.cw-add').scrollIntoViewIfNeeded();
    await shot(page, 'failed-375');
  });

  it('shows the plan versions newest first, with the decision and the comment', async () => {
    for (const width of [1280, 375]) {
      const page = await pageFor('admin', width);
      if (width > 600) await openFromLabDashboard(page, planPatient);
      else {
        // A narrow screen lists the cases as cards.
        await page.getByPlaceholder('Search cases...').fill(planPatient);
        await page.locator('.case-card__open', { hasText: planPatient }).click();
      }
      const panel = page.locator('section', {
        has: page.getByRole('heading', { name: 'Treatment Plan Versions' }),
      });
      await panel.waitFor();
      const versions = panel.getByRole('listitem');
      await until('two versions', async () => (await versions.count()) === 2);
      expect(
        await versions.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label'))),
      ).toEqual(['Version 2', 'Version 1']);
      expect(await versions.nth(0).innerText()).toContain('Approved');
      const first = await versions.nth(1).innerText();
      expect(first).toContain('Changes requested');
      expect(first).toContain('Less tipping on tooth 21');
      expect(
        await versions.nth(1).getByRole('link', { name: 'External simulation' }).getAttribute('href'),
      ).toBe('https://viewer.example/v1');
      await panel.scrollIntoViewIfNeeded();
      await shot(page, `plan-versions-${width}`);
    }
  });

  it('orders a remake: the new case opens, and the two cases link to each other', async () => {
    const page = await pageFor('admin');
    await openFromLabDashboard(page, planPatient);
    await page.getByRole('button', { name: 'Order remake / refinement' }).click();
    const dialog = page.getByRole('dialog', { name: `Order a remake or refinement of ${planCaseId}` });
    await dialog.getByLabel('Reason code').selectOption('broken');
    await dialog.getByLabel('Reason', { exact: true }).fill('Upper aligner 2 cracked');
    await shot(page, 'reorder-dialog-1280');
    await dialog.getByRole('button', { name: 'Order' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The new case is on screen: it names its original.
    const remakeOf = page.locator('.cw-links', { hasText: 'Remake of' });
    await remakeOf.waitFor();
    await remakeOf.getByRole('button', { name: planCaseId }).waitFor();
    const original = await caseOf(planCaseId);
    expect(original.followUps).toHaveLength(1);
    const remakeId = original.followUps[0].caseId;
    expect(await page.locator('.cd-page').innerText()).toContain(remakeId);
    expect((await caseOf(remakeId)).status).toBe('Pending Approval');
    await shot(page, 'remake-detail-1280');

    // The link opens the original, which lists its follow-up; that link opens the remake again.
    await remakeOf.getByRole('button', { name: planCaseId }).click();
    const followUps = page.locator('.cw-links', { hasText: 'Follow-ups:' });
    await followUps.getByRole('button', { name: remakeId }).click();
    await page.locator('.cw-links', { hasText: 'Remake of' }).waitFor();

    // The dashboard marks the remake.
    await page.getByRole('button', { name: 'Go to dashboard' }).click();
    await page.getByPlaceholder('Search cases...').fill(planPatient);
    const row = page
      .getByRole('table', { name: 'All Cases' })
      .getByRole('row', { name: new RegExp(remakeId) });
    await row.getByTitle(`Remake of ${planCaseId}`).waitFor();
    await shot(page, 'dashboard-badge-1280');

    const narrow = await pageFor('admin', 375);
    await narrow.getByPlaceholder('Search cases...').fill(planPatient);
    await narrow.getByTitle(`Remake of ${planCaseId}`).first().waitFor();
    await shot(narrow, 'dashboard-badge-375');
    await narrow.locator('.case-card__open', { hasText: remakeId }).first().click();
    await narrow.locator('.cw-links', { hasText: 'Remake of' }).waitFor();
    await shot(narrow, 'remake-detail-375');
    await narrow.locator('.cw-links').getByRole('button', { name: planCaseId }).click();
    await narrow.getByRole('button', { name: 'Order remake / refinement' }).click();
    await narrow.getByRole('dialog').waitFor();
    await shot(narrow, 'reorder-dialog-375');
  });
});
