import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { LIVE_TEST_TIMEOUT_MS, longTransactionOnServer } from '../support/sse';
import { launchBrowser, newPage, signIn } from './support/browser';
import { useBrowserApp } from './support/browser-app';
import { showLabDashboard } from './support/journey';
import {
  SEED,
  answerNextDialog,
  caseTable,
  eventually,
  offlineCopy,
  tableCaseIds,
  tileValues,
  toast,
} from './support/portal';

/**
 * The portal's data paths end to end (issue 5): backup and restore through the settings drawer,
 * live updates from the event stream into a second browser, and the offline banner.
 */
let secondBrowser: Browser | undefined;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/alignerflow-shots';
mkdirSync(SHOTS, { recursive: true });
const web = useBrowserApp();

afterEach(() => web.sessions.closeAll());

afterAll(async () => {
  await secondBrowser?.close();
});

function isoToday(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

describe('Backup & Restore', () => {
  it('exports a pretty-printed backup and restores it after the confirmation', async () => {
    const admin = await web.lab.login('admin');
    const { page } = await web.sessions.signedIn('admin');
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Settings' });
    await drawer.getByRole('button', { name: 'Backup & Restore' }).click();
    await drawer.getByRole('heading', { name: 'System Backup' }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      drawer.getByRole('button', { name: 'Export Backup (.json)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`alignerflow-backup-${isoToday()}.json`);
    const backupPath = await download.path();
    const text = await readFile(backupPath, 'utf8');
    const backup = JSON.parse(text) as { users: { username: string }[]; cases: { id: string }[] };
    expect(text).toBe(JSON.stringify(backup, null, 2));
    expect(backup.users.map((user) => user.username).sort()).toEqual(
      ['admin', 'designer', 'dr.lee', 'dr.patel', 'rep', 'tech'].sort(),
    );
    expect(backup.cases.map((item) => item.id).sort()).toEqual(Object.keys(SEED.patients).sort());

    // Change the data after the backup: a new user, a deleted case.
    expect(
      (
        await admin.post('/users', {
          username: 'temp.user',
          password: 'copper-lantern-river-7',
          role: 'Designer',
        })
      ).status,
    ).toBe(201);
    expect((await admin.delete('/cases/CA-2024-002')).status).toBe(204);

    const importButton = drawer.getByRole('button', { name: 'Import Backup (.json)' });
    const fileInput = drawer.getByLabel('Backup file (.json)');
    expect(await importButton.isDisabled()).toBe(true);

    // A file without both arrays is refused, after the confirmation, and the input is cleared.
    let chooser = page.waitForEvent('filechooser');
    await fileInput.click();
    await (
      await chooser
    ).setFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"users": []}') });
    expect(await importButton.isEnabled()).toBe(true);
    let confirmation = answerNextDialog(page, true);
    await importButton.click();
    expect(await confirmation).toBe(
      'Are you sure you want to restore from this backup? All current data will be overwritten.',
    );
    await drawer.getByRole('alert').getByText('Invalid backup file format.').waitFor();
    expect(await fileInput.inputValue()).toBe('');
    expect(await importButton.isDisabled()).toBe(true);

    chooser = page.waitForEvent('filechooser');
    await fileInput.click();
    await (await chooser).setFiles(backupPath);
    // Cancelled: nothing changes.
    confirmation = answerNextDialog(page, false);
    await importButton.click();
    await confirmation;
    expect((await admin.get('/cases/CA-2024-002')).status).toBe(404);

    chooser = page.waitForEvent('filechooser');
    await fileInput.click();
    await (await chooser).setFiles(backupPath);
    confirmation = answerNextDialog(page, true);
    await importButton.click();
    await confirmation;
    const done = toast(page, 'Restore Complete');
    await done.waitFor();
    await done.getByText('System data has been restored from backup.').waitFor();
    expect(await fileInput.inputValue()).toBe('');
    expect(await importButton.isDisabled()).toBe(true);

    // The data is the backup's again, on the server and on the screen.
    const users = (await admin.get('/users')).body as { username: string }[];
    expect(users.map((user) => user.username)).not.toContain('temp.user');
    expect((await admin.get('/cases/CA-2024-002')).status).toBe(200);
    await drawer.getByRole('button', { name: 'Close' }).last().click();
    await eventually(async () =>
      expect((await tableCaseIds(page)).sort()).toEqual(Object.keys(SEED.patients).sort()),
    );
    await eventually(async () => expect(await tileValues(page)).toEqual(SEED.tiles));
    // Users restored with their password hashes still sign in.
    expect(
      (await web.lab.anonymous.post('/auth/login', { username: 'dr.lee', password: 'demo' })).status,
    ).toBe(200);
  });
});

describe('live updates', () => {
  it(
    'a case created in one browser appears in a second browser without a reload',
    async () => {
      secondBrowser = await launchBrowser();
      const creator = await web.sessions.signedIn('rep');
      // A Representative's home is My Queue; the Lab Dashboard is the tab beside it.
      await showLabDashboard(creator.page);
      const watcher = await newPage(secondBrowser, { width: 1280, height: 800 });
      web.sessions.track(watcher.context);
      await signIn(watcher.page, web.lab.baseUrl, 'admin');
      const watching = watcher.page;
      await eventually(async () => expect(await tileValues(watching)).toEqual(SEED.tiles));
      await watching.evaluate(() => Object.assign(window, { notReloaded: true }));

      const delays: number[] = [];
      for (const [n, patientName] of [
        'Live Patient One',
        'Live Patient Two',
        'Live Patient Three',
      ].entries()) {
        const seen = watchFor(watching, patientName);
        await seen.armed;
        const { id, sentAt, status } = await creator.page.evaluate(async (name) => {
          const sentAt = Date.now();
          const response = await fetch('api/cases', {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              patientName: name,
              doctorName: 'Dr. Sarah Lee',
              clinicName: 'Bright Smiles Dental',
              priority: 'Normal',
            }),
          });
          return { status: response.status, id: ((await response.json()) as { id: string }).id, sentAt };
        }, patientName);
        expect(status).toBe(201);
        const seenAt = await seen.at;
        delays.push(seenAt - sentAt);
        await caseTable(watching).locator('tbody tr', { hasText: id }).waitFor();
        // The figures follow (the dashboard is refreshed after the event).
        await eventually(async () =>
          expect(await tileValues(watching)).toEqual({
            ...SEED.tiles,
            'Total Active Cases': String(4 + n + 1),
            'Pending Manager Approval': String(1 + n + 1),
          }),
        );
      }

      // A change made in the second browser reaches the first one too.
      const row = caseTable(watching).locator('tbody tr', { hasText: 'CA-2024-001' });
      const held = watchFor(creator.page, 'On Hold');
      await held.armed;
      const heldSentAt = Date.now();
      await row.getByRole('button', { name: 'Hold CA-2024-001' }).click();
      const heldDelay = (await held.at) - heldSentAt;
      await caseTable(creator.page)
        .locator('tbody tr', { hasText: 'CA-2024-001' })
        .locator('.badge', { hasText: 'On Hold' })
        .waitFor();
      await row.getByRole('button', { name: 'Resume CA-2024-001' }).click();

      expect(await watching.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
      console.log(
        `Live update delay (POST /api/cases in browser 1 → row on screen in browser 2): ${delays
          .map((ms) => `${ms} ms`)
          .join(', ')}; hold in browser 2 → 'On Hold' in browser 1: ${heldDelay} ms (target: under 2000 ms)`,
      );
    },
    LIVE_TEST_TIMEOUT_MS,
  );
});

/**
 * Resolves with the page's Date.now() when `text` first shows on the page: within 10 s, or later
 * while a long transaction elsewhere on a shared PostgreSQL server holds the live stream back
 * (its readers trust only transactions older than every running one; see test/support/sse.ts).
 */
function watchFor(page: Page, text: string): { armed: Promise<void>; at: Promise<number> } {
  const key = `seen:${text}`;
  const armed = page.evaluate(
    ({ key, text }) => {
      const target = window as unknown as Record<string, Promise<number>>;
      target[key] = new Promise<number>((resolve) => {
        const check = () => {
          if (!document.body.innerText.includes(text)) return;
          observer.disconnect();
          resolve(Date.now());
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        check();
      });
    },
    { key, text },
  );
  const at = armed.then(async () => {
    const started = Date.now();
    for (;;) {
      const seenAt = await page.evaluate(
        ({ key }) =>
          Promise.race([
            (window as unknown as Record<string, Promise<number>>)[key],
            new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
          ]),
        { key },
      );
      if (seenAt !== null) return seenAt;
      const holder = await longTransactionOnServer();
      if (!holder || Date.now() - started > LIVE_TEST_TIMEOUT_MS - 60_000)
        throw new Error(`'${text}' was not on screen within ${Date.now() - started} ms`);
      console.warn(`Still waiting for '${text}': a long transaction (${holder}) holds the live stream back.`);
    }
  });
  return { armed, at };
}

describe('offline', () => {
  it('shows the last synced data with "Offline — showing data from" when the server goes away', async () => {
    const { page } = await web.sessions.signedIn('admin');
    await eventually(async () => expect(await tableCaseIds(page)).toContain('CA-2024-077'));
    // The service worker has cached the shell, so the app itself still starts without the server.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const banner = page.getByText(/^Offline — showing data from /);
    expect(await banner.count()).toBe(0);
    // The offline copy is written a moment after the data arrives.
    await eventually(async () => expect((await offlineCopy(page))?.owner).toBe('admin'));
    const shownCases = (await tableCaseIds(page)).sort();
    const shownTiles = await tileValues(page);

    // The server goes away while the app is open: the stream drops, the polls fail.
    const server = await stopServer();
    try {
      await banner.waitFor({ timeout: 10_000 });
      expect((await tableCaseIds(page)).sort()).toEqual(shownCases);

      // Reopening the app without the server: the cached shell and the last synced data.
      await page.reload();
      await page.getByRole('heading', { name: 'Lab Dashboard' }).waitFor();
      await banner.waitFor();
      expect((await tableCaseIds(page)).sort()).toEqual(shownCases);
      expect(await tileValues(page)).toEqual(shownTiles);
      await page.screenshot({ path: `${SHOTS}/offline-desktop.png` });
    } finally {
      await server.restart();
    }
    // Back: the banner goes once the stream or a poll gets through.
    await banner.waitFor({ state: 'detached', timeout: 10_000 });
  });
});

/** Stops the app's HTTP server (open connections, the event streams included, are cut); restart() listens again on the same port. */
async function stopServer(): Promise<{ restart: () => Promise<void> }> {
  const server = web.lab.app.getHttpServer() as Server;
  const { port, address } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return {
    restart: () => new Promise<void>((resolve) => server.listen(port, address, () => resolve())),
  };
}
