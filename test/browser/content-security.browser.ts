/**
 * The app under its own Content-Security-Policy: sign-in, the dashboard, a case with its simulation
 * video and the external simulation viewer (an https page in a frame), and the camera scanner run
 * without a single violation reported by the browser.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { signIn } from './support/browser';
import { useBrowserApp } from './support/browser-app';
import { fakeCameraArgs, writeQrY4m } from './support/fake-camera';
import { openFromDoctorPortal, until } from './support/journey';

let workDir: string | undefined;
const web = useBrowserApp({
  browserArgs: () => {
    workDir = mkdtempSync(join(tmpdir(), 'af-csp-'));
    const video = join(workDir, 'qr.y4m');
    writeQrY4m(video, 'not a case code');
    return fakeCameraArgs(video);
  },
});

beforeAll(async () => {
  const admin = await web.lab.login('admin');
  // Olivia Martinez (CA-2024-003) waits for dr.lee's approval, with a simulation video already.
  const links = await admin.put('/cases/CA-2024-003', {
    simulationExternalLink: 'https://example.com/viewer/123',
  });
  expect(links.status).toBe(200);
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** Every violation the page reports, by event and by the console line Chromium writes for it. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      void report(
        `${event.violatedDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Permissions policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

it('signs in, shows the dashboard, a case with its simulation, the external viewer and the scanner: no CSP violation', async () => {
  const { context, page } = await web.sessions.open();
  try {
    const violations = await watchViolations(page);
    await signIn(page, web.lab.baseUrl, 'dr.lee');
    const csp = (await page.request.get(web.lab.baseUrl)).headers()['content-security-policy'];
    expect(csp).toContain("frame-ancestors 'none'");

    await openFromDoctorPortal(page, 'Olivia Martinez');
    // The video is requested (it fails here, with no internet, and the panel says so).
    await page.getByRole('heading', { name: 'Treatment Plan Approval' }).waitFor();
    // The frame's navigation starts (and fails here: no internet), or the policy blocks it.
    let frameRequested = false;
    page.on('request', (request) => {
      if (request.url().startsWith('https://example.com/viewer/')) frameRequested = true;
    });
    await page.getByRole('button', { name: 'View Interactive 3D Simulation' }).click();
    const viewer = page.getByRole('dialog', { name: 'External Simulation Viewer' });
    await viewer.locator('iframe').waitFor();
    await until('the viewer requested or blocked', () => frameRequested || violations.length > 0);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    await page.goto(`${web.lab.baseUrl}#scan`);
    const scanner = page.getByRole('dialog', { name: 'Scan Case QR Code' });
    await scanner.waitFor();
    await scanner.locator('video').waitFor({ state: 'attached' });
    // The camera runs: frames reach the scanner's video.
    for (let frame = 0; frame < 2; frame++)
      await scanner
        .locator('video')
        .evaluate(
          (video: HTMLVideoElement) =>
            new Promise<void>((resolve) => video.requestVideoFrameCallback(() => resolve())),
        );

    expect(violations).toEqual([]);
  } finally {
    await context.close();
  }
});
