import { readFileSync } from 'node:fs';
import { generate } from 'otplib';
import type { Locator, Page } from 'playwright-core';
import { sql } from '../support/helpers';
import { startTestApp, type TestApp } from '../support/test-app';
import { animationsSettled } from './support/browser';
import { useBrowserApp } from './support/browser-app';
import { screenshotDir, waitForCount } from './support/journey';
import { localhostForwarder } from './support/localhost';
import { answerNextDialog, toast } from './support/portal';

/**
 * Two-step sign-in in the built app, in Debian's Chromium against the real backend: an
 * authenticator (its codes computed here from the key the page shows), passkeys on Chromium's
 * virtual authenticator, the enrolment screen of a role that must have a second factor, the
 * re-authentication dialog of a step-up call, and the signed-in devices.
 */
let strictLab: TestApp | undefined;
let localhost: Awaited<ReturnType<typeof localhostForwarder>> | undefined;
const web = useBrowserApp({
  // Passkeys belong to PUBLIC_URL's host name: the page is opened there.
  start: async (spaDir) => {
    localhost = await localhostForwarder();
    const [lab, strict] = await Promise.all([
      startTestApp({ PUBLIC_URL: localhost.url }, { spaDir }),
      startTestApp({ MFA_REQUIRED_ROLES: 'Manager' }, { spaDir }),
    ]);
    strictLab = strict;
    localhost.forwardTo(Number(new URL(lab.baseUrl).port));
    return lab;
  },
  pageUrl: () => localhost!.url,
});
const SHOTS = screenshotDir();
const TOTP_PERIOD_S = 30;

afterEach(() => web.sessions.closeAll());

afterAll(async () => {
  await Promise.all([strictLab?.close(), localhost?.close()]);
});

/** The page at 1280 px, then at 375 px (the same state), then back. */
async function shootBoth(page: Page, name: string, part?: Locator): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [375, 800],
  ]) {
    await page.setViewportSize({ width, height });
    await animationsSettled(page);
    if (part) await part.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
    else await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function fillPassword(page: Page, baseUrl: string, username: string, password = 'demo') {
  await page.goto(baseUrl);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

const signedIn = (page: Page) => page.getByText('Logged in as:').first().waitFor({ state: 'attached' });

/** The settings drawer at a section: My Account from the header (every role), others from a Manager's dashboard. */
async function openSettings(page: Page, section: string): Promise<Locator> {
  const opener = section === 'My Account' ? page.locator('header') : page;
  await opener
    .getByRole('button', { name: section === 'My Account' ? section : 'Settings', exact: true })
    .first()
    .click();
  const drawer = page.getByRole('dialog', { name: 'Settings' });
  await drawer.getByRole('button', { name: section, exact: true }).click();
  await animationsSettled(page);
  return drawer;
}

async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).first().click();
  await page.getByRole('button', { name: 'Login' }).waitFor();
}

/** The user of the page's session, and how the server answers it an ordinary call (GET /cases). */
function whoAmI(page: Page): Promise<{ status: number; username?: string; error?: string }> {
  return page.evaluate(async () => {
    const me = await fetch('/api/auth/me');
    const body = (await me.json()) as { user?: { username: string } };
    const cases = await fetch('/api/cases');
    const refusal = cases.ok ? undefined : ((await cases.json()) as { error: string }).error;
    return { status: cases.status, username: body.user?.username, error: refusal };
  });
}

const timeStep = () => Math.floor(Date.now() / 1000 / TOTP_PERIOD_S);

/** Each code is accepted once: the next one comes in the next 30-second step. */
async function codeAfterStep(secret: string, usedStep: number): Promise<string> {
  while (timeStep() <= usedStep) await new Promise((resolve) => setTimeout(resolve, 250));
  return generate({ secret });
}

/** Sets up the authenticator in the Two-step sign-in card and hands back its key and the step used. */
async function enrolAuthenticator(page: Page, card: Locator, shots?: string) {
  await card.getByRole('button', { name: 'Set up an authenticator' }).click();
  await card.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
  const secret = ((await card.getByTestId('totp-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  if (shots) await shootBoth(page, `${shots}-enrolling`, card);
  const step = timeStep();
  await card.getByLabel('6-digit code').fill(await generate({ secret }));
  await card.getByRole('button', { name: 'Turn on' }).click();
  const codes = card.getByRole('region', { name: 'Recovery codes' }).getByRole('listitem');
  await codes.first().waitFor();
  expect(await codes.count()).toBe(10);
  return { secret, step, codes: await codes.allTextContents() };
}

describe('two-step sign-in', () => {
  it('enrols an authenticator, then signs in with the password and a code', async () => {
    const { page } = await web.sessions.open();
    await fillPassword(page, localhost!.url, 'designer');
    await signedIn(page);
    const drawer = await openSettings(page, 'My Account');
    const card = drawer.getByRole('region', { name: 'Two-step sign-in' });
    const { secret, step, codes } = await enrolAuthenticator(page, card, 'two-step');
    await shootBoth(page, 'two-step-codes', card);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'Download (.txt)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('alignerflow-recovery-codes.txt');
    const saved = readFileSync(await download.path(), 'utf8');
    for (const code of codes) expect(saved).toContain(code);

    await card.getByRole('button', { name: 'I have saved them' }).click();
    await card.getByText('On: sign-in asks for a code from your authenticator app.').waitFor();
    expect(await card.getByText(codes[0]).count()).toBe(0); // shown once
    await drawer.getByRole('button', { name: 'Close' }).last().click();
    await logout(page);

    await fillPassword(page, localhost!.url, 'designer');
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    const current = await generate({ secret });
    const wrong = String((Number(current) + 1) % 1_000_000).padStart(6, '0');
    await page.getByLabel('6-digit code').fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('The code is not valid.');
    await shootBoth(page, 'second-step');

    await page.getByLabel('6-digit code').fill(await codeAfterStep(secret, step));
    await page.getByRole('button', { name: 'Verify' }).click();
    await signedIn(page);
    expect((await whoAmI(page)).username).toBe('designer');
  });

  it('registers a passkey, then signs in with it alone', async () => {
    const { context, page } = await web.sessions.open();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await fillPassword(page, localhost!.url, 'tech');
    await signedIn(page);
    const drawer = await openSettings(page, 'My Account');
    const card = drawer.getByRole('region', { name: 'Two-step sign-in' });
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    await card.getByLabel('Passkey name').fill('Bench laptop');
    await card.getByRole('button', { name: 'Create passkey' }).click();
    await card.getByRole('list', { name: 'Passkeys' }).getByText('Bench laptop').waitFor();
    await shootBoth(page, 'two-step-passkeys', card);
    await drawer.getByRole('button', { name: 'Close' }).last().click();
    await logout(page);

    await shootBoth(page, 'sign-in-passkey-button');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await signedIn(page);
    expect((await whoAmI(page)).username).toBe('tech');
    await logout(page);

    // With a passkey the password alone no longer signs in: the passkey is the second step.
    await fillPassword(page, localhost!.url, 'tech');
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await signedIn(page);
    expect((await whoAmI(page)).username).toBe('tech');
  });

  it('sends a Manager without a second factor to the enrolment screen until one is active', async () => {
    const { page } = await web.sessions.open();
    await fillPassword(page, strictLab!.baseUrl, 'admin');
    await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    expect(await page.getByText('Logged in as:').count()).toBe(0);
    expect(await whoAmI(page)).toMatchObject({ status: 403, error: 'Set up two-step sign-in first.' });
    await page.getByRole('button', { name: 'Set up an authenticator' }).waitFor();
    await shootBoth(page, 'enrolment');

    // A reload keeps the user on it.
    await page.reload();
    await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();

    const card = page.getByRole('region', { name: 'Two-step sign-in' });
    await enrolAuthenticator(page, card);
    await card.getByRole('button', { name: 'I have saved them' }).click();
    await signedIn(page);
    expect(await whoAmI(page)).toMatchObject({ status: 200, username: 'admin' });
  });

  it('asks to confirm it is you before a backup, then downloads it', async () => {
    const { page } = await web.sessions.open();
    await fillPassword(page, localhost!.url, 'admin');
    await signedIn(page);
    // The sign-in proved the user just now: make that proof older than the step-up window.
    await sql(web.lab.databaseUrl, `UPDATE sessions SET proved_at = now() - interval '11 minutes'`);

    const drawer = await openSettings(page, 'Backup & Restore');
    const exportButton = drawer.getByRole('button', { name: 'Export Backup (.json)' });
    await exportButton.click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.getByText('Confirm it is you to continue.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await toast(page, 'Export failed').getByText('Cancelled: this needs you to confirm it is you.').waitFor();

    await exportButton.click();
    await dialog.getByLabel('Your password').waitFor();
    expect(
      await dialog.getByLabel('Your password').evaluate((input) => input === document.activeElement),
    ).toBe(true);
    await dialog.getByLabel('Your password').fill('not the password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByRole('alert').waitFor();
    await shootBoth(page, 'reauth');
    await dialog.getByLabel('Your password').fill('demo');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Confirm' }).click(),
    ]);
    const backup = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
      users: { username: string }[];
    };
    expect(backup.users.map((user) => user.username)).toContain('admin');
    expect(await dialog.count()).toBe(0);
  });

  it('lists the signed-in devices and signs another one out', async () => {
    const other = await web.lab.login('rep');
    expect((await other.get('/auth/me')).status).toBe(200);
    const { page } = await web.sessions.open();
    await fillPassword(page, localhost!.url, 'rep');
    await signedIn(page);
    const drawer = await openSettings(page, 'My Account');
    const card = drawer.getByRole('region', { name: 'Signed-in devices' });
    const devices = card.getByRole('listitem');
    await devices.nth(1).waitFor();
    expect(await devices.count()).toBe(2);
    await devices.first().getByText('This device').waitFor();
    expect(await devices.first().getByRole('button').count()).toBe(0);
    await shootBoth(page, 'sessions', card);

    const confirmed = answerNextDialog(page);
    await devices
      .nth(1)
      .getByRole('button', { name: /^Sign out / })
      .click();
    expect(await confirmed).toMatch(/^Sign out /);
    await toast(page, 'Device signed out').waitFor();
    // The toast comes with the answer; the list shows it once refetched.
    await waitForCount(devices, 1);
    expect((await other.get('/auth/me')).status).toBe(401);
    expect((await whoAmI(page)).username).toBe('rep');
  });
});
