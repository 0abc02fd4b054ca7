import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium with the flags this closed network needs (no downloads, no background calls). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}

export async function newPage(
  browser: Browser,
  options: { width?: number; height?: number; isMobile?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    isMobile: options.isMobile,
    hasTouch: options.isMobile,
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  return { context, page };
}

/** Signs in through the real login form and waits for the shell (its header line is in the DOM at every width). */
export async function signIn(
  page: Page,
  baseUrl: string,
  username: string,
  password = 'demo',
): Promise<void> {
  await page.goto(baseUrl);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByText('Logged in as:').first().waitFor({ state: 'attached' });
}

/**
 * Waits until every finite CSS transition and animation on the page has run to its end (a
 * drawer's slide-in, a switch's slide): a screenshot then shows where they end. Endless ones (a
 * spinner) are left out.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = () =>
      document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity,
        );
    // One that ends may start another (a chained transition): look again until none runs.
    for (let running = finite(); running.length; running = finite())
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
  });
}
