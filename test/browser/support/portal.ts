import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BUILT_SPA } from '../../support/test-app';
import { newPage, signIn } from './browser';

/** The seed's figures (spec section 3 sample cases, backend/src/seed/sample-data.ts). */
export const SEED = {
  tiles: {
    'Total Active Cases': '4',
    'Pending Manager Approval': '1',
    'Awaiting Doctor Approval': '1',
    'Overdue Cases': '1',
  },
  patients: {
    'CA-2024-001': 'Emma Thompson',
    'CA-2024-002': 'James Carter',
    'CA-2024-003': 'Olivia Martinez',
    'CA-2024-004': 'Liam Nguyen',
    'CA-2024-077': 'Sophia Brown',
    // Completed after the five, so the Billing screen has invoices in every state.
    'CA-2024-101': 'Noah Williams',
    'CA-2024-102': 'Mia Johnson',
    'CA-2024-103': 'Lucas Garcia',
    'CA-2024-104': 'Isabella Rossi',
  },
} as const;

export const SESSION_COOKIE = 'af_session';

/**
 * A private copy of the built app (frontend/dist), so a rebuild while the suite runs cannot swap
 * the page's assets under it. A copy caught in the middle of a rebuild (a file the page or the
 * service worker's precache list names is missing) is taken again. Fails early with the fix when
 * the app was not built.
 */
export async function snapshotBuiltSpa(): Promise<{ dir: string; remove: () => void }> {
  for (let attempt = 1; ; attempt++) {
    for (const file of ['index.html', 'sw.js'])
      if (!existsSync(join(BUILT_SPA, file)))
        throw new Error(`No built app in ${BUILT_SPA}: run \`npm run build -w frontend\` first.`);
    const dir = mkdtempSync(join(tmpdir(), 'af-spa-'));
    const remove = () => rmSync(dir, { recursive: true, force: true });
    try {
      cpSync(BUILT_SPA, dir, { recursive: true });
      const missing = missingFiles(dir);
      if (missing.length === 0) return { dir, remove };
      if (attempt >= 20)
        throw new Error(`The built app in ${BUILT_SPA} lacks ${missing.join(', ')}: rebuild it.`);
    } catch (error) {
      remove();
      if (attempt >= 20) throw error;
    }
    remove();
    await sleep(500);
  }
}

/** Files that index.html or the service worker's precache list name but the copy lacks. */
function missingFiles(dir: string): string[] {
  const index = readFileSync(join(dir, 'index.html'), 'utf8');
  const worker = readFileSync(join(dir, 'sw.js'), 'utf8');
  const named = [
    ...[...index.matchAll(/(?:src|href)="[^"]*?(assets\/[^"]+)"/g)].map((match) => match[1]),
    ...[...worker.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]),
  ];
  return [...new Set(named)].filter((file) => !existsSync(join(dir, file)));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retries an assertion until it passes (the UI settles asynchronously), then rethrows its last
 * failure. The default bound is Playwright's order of magnitude, not a timing: a loaded machine
 * settles late.
 */
export async function eventually(assertion: () => unknown, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(50);
    }
  }
}

/** Contexts opened by a test file, closed together in afterAll. */
export class Sessions {
  private readonly contexts: BrowserContext[] = [];

  constructor(
    private readonly browser: () => Browser,
    private readonly baseUrl: () => string,
  ) {}

  async open(options: { width?: number; height?: number; isMobile?: boolean } = {}) {
    const opened = await newPage(this.browser(), options);
    this.contexts.push(opened.context);
    return opened;
  }

  /** A new context signed in as `username` through the login form. */
  async signedIn(
    username: string,
    options: { width?: number; height?: number; isMobile?: boolean } = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await this.open(options);
    await signIn(opened.page, this.baseUrl(), username);
    return opened;
  }

  track(context: BrowserContext): BrowserContext {
    this.contexts.push(context);
    return context;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.contexts.splice(0).map((context) => context.close().catch(() => undefined)));
  }
}

/** Accepts (or dismisses) the next window.confirm and hands back its message. */
export function answerNextDialog(page: Page, accept = true): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });
  });
}

/** Text of the four summary tiles, by title. */
export async function tileValues(page: Page): Promise<Record<string, string>> {
  return page
    .locator('.tile')
    .evaluateAll((tiles) =>
      Object.fromEntries(
        tiles.map((tile) => [
          tile.querySelector('.tile__title')?.textContent ?? '',
          tile.querySelector('.tile__value')?.textContent ?? '',
        ]),
      ),
    );
}

/** The All Cases table (desktop). */
export function caseTable(page: Page) {
  return page.locator('table[aria-labelledby="all-cases"]');
}

/** Case ids of the All Cases table rows, top to bottom. */
export function tableCaseIds(page: Page): Promise<string[]> {
  return caseTable(page).locator('tbody tr td:first-child').allTextContents();
}

/**
 * The offline copy the app keeps in IndexedDB (frontend/src/api/offlineCopy.ts), summarised; null
 * when there is none. Never creates the database: an open that would have to is aborted.
 */
export function offlineCopy(page: Page): Promise<{ owner: string; cases: number } | null> {
  return page.evaluate(
    () =>
      new Promise<{ owner: string; cases: number } | null>((resolve, reject) => {
        const open = indexedDB.open('alignerflow');
        open.onupgradeneeded = () => open.transaction!.abort();
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          const transaction = db.transaction(['offline', 'offlineCases']);
          const copy = transaction.objectStore('offline').get('copy');
          const records = transaction.objectStore('offlineCases').getAll();
          transaction.oncomplete = () => {
            db.close();
            const owner = (copy.result as { owner: { username: string } } | undefined)?.owner.username;
            const cases = (records.result as unknown[][]).reduce((sum, record) => sum + record.length, 0);
            resolve(owner ? { owner, cases } : null);
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
  );
}

/** A toast with this title (the Toaster is a polite live region). */
export function toast(page: Page, title: string) {
  return page.locator('.toast').filter({ has: page.locator('.toast__title', { hasText: title }) });
}
