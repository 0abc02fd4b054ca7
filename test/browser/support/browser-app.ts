import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../../support/test-app';
import { launchBrowser } from './browser';
import { Sessions, snapshotBuiltSpa } from './portal';

/** A browser test file's app and Chromium, started in its `beforeAll` and closed in its `afterAll`. */
export interface BrowserApp {
  /** The app, serving a private copy of the built frontend (`snapshotBuiltSpa`). */
  readonly lab: TestApp;
  readonly browser: Browser;
  /** The file's pages; closed before the browser. */
  readonly sessions: Sessions;
}

export interface BrowserAppOptions {
  /** Starts the app on the copy of the built frontend; by default `startTestApp({}, { spaDir })`. */
  start?: (spaDir: string) => Promise<TestApp>;
  /** Extra Chromium flags, or what makes them (a fake camera's video file, say) in the `beforeAll`. */
  browserArgs?: string[] | (() => string[]);
  /** Where `sessions` open the app, when not at the app's own address (a forwarder, say). */
  pageUrl?: () => string;
}

/**
 * Registers the hooks that start the app and the browser together (before the file's own
 * `beforeAll`s that come after this call) and close pages, browser, app and copy after the tests.
 * Read `lab` and `browser` inside tests and hooks, never at the top of the file.
 */
export function useBrowserApp(options: BrowserAppOptions = {}): BrowserApp {
  let lab: TestApp | undefined;
  let browser: Browser | undefined;
  let spa: Awaited<ReturnType<typeof snapshotBuiltSpa>> | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The ${what} is not started: read it inside a test or a hook.`);
    return value;
  };
  const web: BrowserApp = {
    get lab() {
      return started(lab, 'app');
    },
    get browser() {
      return started(browser, 'browser');
    },
    sessions: new Sessions(
      () => web.browser,
      () => (options.pageUrl ? options.pageUrl() : web.lab.baseUrl),
    ),
  };
  beforeAll(async () => {
    spa = await snapshotBuiltSpa();
    const dir = spa.dir;
    [lab, browser] = await Promise.all([
      options.start ? options.start(dir) : startTestApp({}, { spaDir: dir }),
      launchBrowser(typeof options.browserArgs === 'function' ? options.browserArgs() : options.browserArgs),
    ]);
  });
  afterAll(async () => {
    await web.sessions.closeAll();
    await browser?.close();
    await lab?.close();
    spa?.remove();
  });
  return web;
}
