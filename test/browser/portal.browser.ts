import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { animationsSettled } from './support/browser';
import { useBrowserApp } from './support/browser-app';
import { showLabDashboard } from './support/journey';
import {
  SEED,
  SESSION_COOKIE,
  answerNextDialog,
  caseTable,
  eventually,
  offlineCopy,
  tableCaseIds,
  tileValues,
  toast,
} from './support/portal';

/**
 * The portal shell end to end (issue 5): the built app in Debian's Chromium against the real
 * backend on a fresh PostgreSQL database in demo mode. One app and one browser for the file; a new
 * context per user.
 */
const web = useBrowserApp();
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/alignerflow-shots';
mkdirSync(SHOTS, { recursive: true });
const MOBILE = { width: 375, height: 740, isMobile: true };

afterEach(() => web.sessions.closeAll());

async function openSettings(page: Page, section?: string) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const drawer = page.getByRole('dialog', { name: 'Settings' });
  await drawer.waitFor();
  if (section) await drawer.getByRole('button', { name: section }).click();
  return drawer;
}

describe('sign-in', () => {
  it('shows the splash, then the login form, whose Login button waits for both fields', async () => {
    const { page } = await web.sessions.open();
    await page.goto(web.lab.baseUrl);
    await page.getByText('Dental Lab Workflow', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'AlignerFlow' }).waitFor();

    await page.getByLabel('Username').waitFor();
    await page.getByText('Dental Lab Workflow Portal').waitFor();
    await page.getByText('Keep me logged in across browser sessions').waitFor();
    await page.getByText(/^Demo users: admin, rep, designer, tech, dr\.lee, dr\.patel/).waitFor();
    const login = page.getByRole('button', { name: 'Login' });
    expect(await login.isDisabled()).toBe(true);
    await page.getByLabel('Username').fill('admin');
    expect(await login.isDisabled()).toBe(true);
    await page.getByLabel('Password').fill('wrong');
    expect(await login.isEnabled()).toBe(true);
    await page.getByLabel('Username').fill('');
    expect(await login.isDisabled()).toBe(true);
    await page.getByLabel('Username').fill('ADMIN');

    await login.click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Invalid username or password.');
    expect(await page.getByText('Logged in as:').count()).toBe(0);

    // The username is matched case-insensitively, the password exactly.
    await page.getByLabel('Password').fill('demo');
    await login.click();
    await page.getByRole('heading', { name: 'Lab Dashboard' }).waitFor();
  });

  it('every staff role sees the Lab Dashboard with the seed figures (bench roles on its tab)', async () => {
    await Promise.all(['admin', 'rep', 'designer', 'tech'].map(staffDashboard));
  });

  it('doctors see the Doctor Portal with only their own cases and the spec card texts', async () => {
    const [lee, patel] = await Promise.all([
      web.sessions.signedIn('dr.lee'),
      web.sessions.signedIn('dr.patel'),
    ]);

    const leePage = lee.page;
    await leePage.getByRole('heading', { name: 'Doctor Portal' }).waitFor();
    await leePage.getByText('Welcome, dr.lee').waitFor();
    await leePage.getByRole('button', { name: 'Scan Aligner Stage' }).waitFor();
    await leePage.getByRole('main').getByRole('button', { name: 'New Case' }).waitFor();
    const awaiting = leePage.getByRole('region', { name: 'Awaiting Your Approval' });
    await awaiting.waitFor();
    expect(await awaiting.locator('.doctor-card').count()).toBe(1);
    await awaiting.getByText('Olivia Martinez').waitFor();
    await awaiting.getByText('Action Required: Awaiting your approval.').waitFor();

    const list = leePage.getByRole('region', { name: 'Active & Completed Cases' });
    const patients = await list.locator('.doctor-card__patient').allTextContents();
    // Newest first: the order of createdDate as the server reports it.
    const leeCases = (await (await web.lab.login('dr.lee')).get('/cases')).body as {
      id: string;
      patientName: string;
      status: string;
      createdDate: string;
    }[];
    const expected = leeCases
      .filter((item) => item.status !== 'Doctor Approval')
      .sort((a, b) => Date.parse(b.createdDate) - Date.parse(a.createdDate))
      .map((item) => item.patientName);
    expect(patients).toEqual(expected);
    // The demo's billing cases (Noah Williams, Lucas Garcia) are completed ones of dr.lee's too.
    expect(new Set(patients)).toEqual(
      new Set(['Emma Thompson', 'Sophia Brown', 'Noah Williams', 'Lucas Garcia']),
    );
    const completed = list.locator('.doctor-card', { hasText: 'Sophia Brown' });
    expect(await completed.locator('.badge').textContent()).toBe('View Staging');
    for (const other of ['James Carter', 'Liam Nguyen'])
      expect(await leePage.getByText(other).count()).toBe(0);
    // Doctors have neither the Lab Dashboard nor the header New Case.
    expect(await leePage.getByRole('heading', { name: 'Lab Dashboard' }).count()).toBe(0);
    expect(
      await leePage.getByRole('navigation', { name: 'Main navigation' }).getByText('New Case').count(),
    ).toBe(0);

    const patelPage = patel.page;
    await patelPage.getByRole('heading', { name: 'Doctor Portal' }).waitFor();
    const pending = patelPage.locator('.doctor-card', { hasText: 'James Carter' });
    await pending.getByText('Awaiting approval from the lab manager.').waitFor();
    await patelPage.locator('.doctor-card', { hasText: 'Liam Nguyen' }).waitFor();
    // James Carter and Liam Nguyen, and the demo's completed billing cases Mia Johnson and Isabella Rossi.
    await patelPage.locator('.doctor-card', { hasText: 'Mia Johnson' }).waitFor();
    expect(await patelPage.locator('.doctor-card').count()).toBe(4);
    expect(await patelPage.getByText('Awaiting Your Approval').count()).toBe(0);
    for (const other of ['Emma Thompson', 'Olivia Martinez', 'Sophia Brown'])
      expect(await patelPage.getByText(other).count()).toBe(0);
  });

  it('Remember Me keeps the session across a reload and a browser restart; without it a restart signs out', async () => {
    await Promise.all([rememberMe('rep', true), rememberMe('designer', false)]);
  });

  it('Logout ends the session: back to the login form and the old cookie answers 401', async () => {
    const { context, page } = await web.sessions.signedIn('admin');
    const cookie = (await context.cookies()).find((item) => item.name === SESSION_COOKIE);
    expect(cookie).toBeDefined();
    const withOldCookie = () =>
      fetch(`${web.lab.apiUrl}/auth/me`, { headers: { cookie: `${SESSION_COOKIE}=${cookie!.value}` } });
    expect((await withOldCookie()).status).toBe(200);
    await eventually(async () => expect((await offlineCopy(page))?.owner).toBe('admin'));

    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('button', { name: 'Logout' })
      .click();
    await page.getByLabel('Username').waitFor();
    expect((await withOldCookie()).status).toBe(401);
    // The offline copy of patient data goes with the session.
    await eventually(async () => expect(await offlineCopy(page)).toBeNull());
    await page.reload();
    await page.getByLabel('Username').waitFor();
  });
});

/** The staff home's page heading once it shows: 'Lab Dashboard' or 'My Queue'. */
async function homeHeading(page: Page): Promise<string> {
  const heading = page.getByRole('heading', { level: 1, name: /^(Lab Dashboard|My Queue)/ });
  await heading.waitFor();
  return (await heading.textContent())!.startsWith('My Queue') ? 'My Queue' : 'Lab Dashboard';
}

/** One staff user's Lab Dashboard: tiles, table, and what the role may do there. */
async function staffDashboard(username: string): Promise<void> {
  const { page } = await web.sessions.signedIn(username);
  const role = (await web.lab.login(username)).user!.role;
  // The Manager's home; Technicians, Designers and Representatives land on My Queue beside it.
  expect(await homeHeading(page)).toBe(role === 'Manager' ? 'Lab Dashboard' : 'My Queue');
  await showLabDashboard(page);
  expect(await page.locator('.header__role strong').textContent()).toBe(role);
  await eventually(async () => expect(await tileValues(page)).toEqual(SEED.tiles));
  await eventually(async () =>
    expect((await tableCaseIds(page)).sort()).toEqual(Object.keys(SEED.patients).sort()),
  );
  const headers = await caseTable(page).locator('thead th').allTextContents();
  const manager = role === 'Manager';
  expect(headers).toEqual([
    'Case ID',
    'Patient',
    'Doctor',
    'Type',
    'Status',
    'Due Date',
    ...(manager ? ['Actions'] : []),
  ]);
  const row = caseTable(page).locator('tbody tr', { hasText: 'CA-2024-004' });
  expect(await row.locator('.badge').textContent()).toBe('Thermoforming');
  // Settings and the row actions are the managers' own.
  expect(await page.getByRole('button', { name: 'Settings', exact: true }).count()).toBe(manager ? 1 : 0);
  expect(await page.getByRole('button', { name: 'Hold CA-2024-001' }).count()).toBe(manager ? 1 : 0);
  // New Case in the header: Manager and Representative.
  const newCase = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', {
    name: 'New Case',
  });
  expect(await newCase.count()).toBe(role === 'Manager' || role === 'Representative' ? 1 : 0);
  // Beyond the spec: the overdue case is at risk; time in stage covers active statuses only.
  await page.getByRole('region', { name: 'Cases at Risk' }).getByText('Liam Nguyen').waitFor();
  expect(await row.getByText('At risk').count()).toBe(1);
  const waiting = page.getByRole('region', { name: 'Time in Stage' }).locator('tbody .badge');
  expect(await waiting.allTextContents()).toEqual([
    'Pending Approval',
    'Digital Planning',
    'Doctor Approval',
    'Thermoforming',
  ]);
}

/**
 * Signs in with or without Remember Me; a reload keeps the session either way, a browser restart
 * only with it (the cookie then has an expiry; without it, it is a session cookie).
 */
async function rememberMe(username: string, remember: boolean): Promise<void> {
  const { context, page } = await web.sessions.open();
  await page.goto(web.lab.baseUrl);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('demo');
  const toggle = page.getByRole('switch', { name: /Remember Me/ });
  expect(await toggle.isChecked()).toBe(false);
  if (remember) await toggle.check({ force: true });
  await page.getByRole('button', { name: 'Login' }).click();
  await homeHeading(page);
  expect(await page.evaluate(() => localStorage.getItem('rememberMeEnabled'))).toBe(String(remember));

  await page.reload();
  await homeHeading(page);

  const restarted = await restartBrowser(context);
  await restarted.goto(web.lab.baseUrl);
  if (remember) {
    await homeHeading(restarted);
  } else {
    await restarted.getByLabel('Username').waitFor();
    expect(await restarted.getByText('Logged in as:').count()).toBe(0);
  }
}

/** A new context with what a browser keeps on restart: persistent cookies and local storage. */
async function restartBrowser(context: import('playwright-core').BrowserContext): Promise<Page> {
  const state = await context.storageState();
  const kept = { ...state, cookies: state.cookies.filter((cookie) => cookie.expires > 0) };
  const restarted = web.sessions.track(await web.browser.newContext({ storageState: kept }));
  return restarted.newPage();
}

describe('Lab Dashboard', () => {
  it('searches by case id, patient and doctor, case-insensitively', async () => {
    const { page } = await web.sessions.signedIn('tech');
    await showLabDashboard(page);
    const search = page.getByPlaceholder('Search cases...');
    await eventually(async () =>
      expect(await tableCaseIds(page)).toHaveLength(Object.keys(SEED.patients).length),
    );

    const expectRows = async (query: string, ids: string[]) => {
      await search.fill(query);
      await eventually(async () => expect((await tableCaseIds(page)).sort()).toEqual(ids));
    };
    await expectRows('ca-2024-07', ['CA-2024-077']);
    await expectRows('EMMA', ['CA-2024-001']);
    await expectRows('martínez', []);
    await expectRows('martinez', ['CA-2024-003']);
    await expectRows('dr. raj PATEL', ['CA-2024-002', 'CA-2024-004', 'CA-2024-102', 'CA-2024-104']);
    await expectRows('sarah lee', [
      'CA-2024-001',
      'CA-2024-003',
      'CA-2024-077',
      'CA-2024-101',
      'CA-2024-103',
    ]);
    await expectRows('nobody at all', []);
    await page.getByText('No cases match your search.').waitFor();
    await expectRows('', Object.keys(SEED.patients).sort());
  });

  it('holds and resumes a case from the table; the badge reads On Hold', async () => {
    const { page } = await web.sessions.signedIn('admin');
    const row = caseTable(page).locator('tbody tr', { hasText: 'CA-2024-001' });
    await row.waitFor();
    expect(await row.locator('.badge').textContent()).toBe('Digital Planning');

    await row.getByRole('button', { name: 'Hold CA-2024-001' }).click();
    await eventually(async () => expect(await row.locator('.badge').textContent()).toBe('On Hold'));
    const admin = await web.lab.login('admin');
    expect((await admin.get('/cases/CA-2024-001')).body.onHold).toBe(true);

    await row.getByRole('button', { name: 'Resume CA-2024-001' }).click();
    await eventually(async () => expect(await row.locator('.badge').textContent()).toBe('Digital Planning'));
    expect((await admin.get('/cases/CA-2024-001')).body.onHold).toBe(false);
  });

  it('deletes a case from the table after the spec confirmation', async () => {
    const rep = await web.lab.login('rep');
    const created = await rep.post('/cases', {
      patientName: 'Delete Me',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles Dental',
      priority: 'Normal',
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const { page } = await web.sessions.signedIn('admin');
    const row = caseTable(page).locator('tbody tr', { hasText: id });
    await row.waitFor();
    await eventually(async () => expect((await tileValues(page))['Total Active Cases']).toBe('5'));

    // Cancelled: nothing happens. Counted at the end: the one request then is the confirmed one's.
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes.push(request.url());
    });
    let message = answerNextDialog(page, false);
    await row.getByRole('button', { name: `Delete ${id}` }).click();
    expect(await message).toBe('Are you sure you want to delete this case? This action cannot be undone.');
    expect(await row.count()).toBe(1);

    message = answerNextDialog(page, true);
    await row.getByRole('button', { name: `Delete ${id}` }).click();
    expect(await message).toBe('Are you sure you want to delete this case? This action cannot be undone.');
    await row.waitFor({ state: 'detached' });
    expect(deletes).toEqual([`${web.lab.apiUrl}/cases/${id}`]);
    expect((await rep.get(`/cases/${id}`)).status).toBe(404);
    await eventually(async () => expect(await tileValues(page)).toEqual(SEED.tiles));
  });
});

describe('Settings: User Management', () => {
  it('adds and deletes users with the spec messages; admin cannot be deleted', async () => {
    const { page } = await web.sessions.signedIn('admin');
    const drawer = await openSettings(page);
    await drawer.getByRole('heading', { name: 'User Management' }).waitFor();
    await drawer.getByText('Add New User').waitFor();
    const users = drawer.locator('.user-list');
    await users.getByText('dr.patel').waitFor();

    const username = drawer.getByLabel('Username');
    const password = drawer.getByLabel('Password');
    const role = drawer.getByLabel('Role');
    const add = drawer.getByRole('button', { name: 'Add User' });
    const error = drawer.getByRole('alert');
    expect(await role.inputValue()).toBe('Technician');

    // Empty after trimming.
    await username.fill('   ');
    await password.fill('secret');
    await add.click();
    expect(await error.textContent()).toBe('Username and password cannot be empty.');

    // Taken, case-insensitively.
    await username.fill('DR.LEE');
    await add.click();
    await eventually(async () =>
      expect(await error.textContent()).toBe('Username "DR.LEE" is already taken.'),
    );

    await username.fill('nurse.joy');
    await password.fill('joy-violet-harbor-42');
    await role.selectOption('Designer');
    await add.click();
    await toast(page, 'User Added').waitFor();
    await users.locator('li', { hasText: 'nurse.joy' }).getByText('Designer').waitFor();
    expect(await username.inputValue()).toBe('');
    expect(await password.inputValue()).toBe('');
    expect(await role.inputValue()).toBe('Technician');
    expect(await error.count()).toBe(0);
    expect(
      (
        await web.lab.anonymous.post('/auth/login', {
          username: 'nurse.joy',
          password: 'joy-violet-harbor-42',
        })
      ).status,
    ).toBe(200);

    // The server says "taken" too (the list here is current, so this is the client check).
    await username.fill('Nurse.Joy');
    await password.fill('x');
    await add.click();
    expect(await error.textContent()).toBe('Username "Nurse.Joy" is already taken.');

    const adminDelete = users.getByRole('button', { name: 'Delete user admin' });
    expect(await adminDelete.isDisabled()).toBe(true);
    expect(await adminDelete.getAttribute('title')).toBe('Cannot delete admin');

    const message = answerNextDialog(page, true);
    await users.getByRole('button', { name: 'Delete user nurse.joy' }).click();
    expect(await message).toBe(
      'Are you sure you want to delete the user "nurse.joy"? This action cannot be undone.',
    );
    await toast(page, 'User Deleted').waitFor();
    await users.locator('li', { hasText: 'nurse.joy' }).waitFor({ state: 'detached' });
    expect(
      (
        await web.lab.anonymous.post('/auth/login', {
          username: 'nurse.joy',
          password: 'joy-violet-harbor-42',
        })
      ).status,
    ).toBe(401);
  });
});

describe('layout and shell', () => {
  it('at 375 px: bottom navigation Home / New / Scan / Reports / Billing / Logout, case cards, and the menu with Role:', async () => {
    const [{ page }, tech] = await Promise.all([
      web.sessions.signedIn('admin', MOBILE),
      web.sessions.signedIn('tech', MOBILE),
    ]);
    const bottom = page.getByRole('navigation', { name: 'Mobile navigation' });
    await bottom.waitFor();
    // A Manager's also leads to the Reports and to Billing.
    expect(await bottom.getByRole('button').allTextContents()).toEqual([
      'Home',
      'New',
      'Scan',
      'Reports',
      'Billing',
      'Logout',
    ]);
    expect(await caseTable(page).isVisible()).toBe(false);
    await page.locator('.case-card', { hasText: 'Emma Thompson' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).isVisible()).toBe(false);

    const menuButton = page.getByRole('button', { name: 'Menu' });
    expect(await page.getByText('Role:').isVisible()).toBe(false);
    await menuButton.click();
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    const menu = page.locator('#header-menu');
    await menu.getByText('Role:').waitFor();
    expect(await menu.locator('.header__menu-role strong').textContent()).toBe('Manager');
    await menu.getByRole('button', { name: 'New Case' }).waitFor();
    await menu.getByRole('button', { name: 'Logout' }).waitFor();
    await menuButton.click();
    await menu.waitFor({ state: 'hidden' });

    // Nothing wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // A technician cannot create cases: no New.
    const techNav = tech.page.getByRole('navigation', { name: 'Mobile navigation' });
    expect(await techNav.getByRole('button').allTextContents()).toEqual(['Home', 'Scan', 'Logout']);
    // Bottom Logout signs out.
    await techNav.getByRole('button', { name: 'Logout' }).click();
    await tech.page.getByLabel('Username').waitFor();
  });

  it('#scan opens the scanner dialog and closing it removes the fragment', async () => {
    const { page } = await web.sessions.signedIn('designer');
    await page.goto(`${web.lab.baseUrl}#scan`);
    const scanner = page.getByRole('dialog', { name: 'Scan Case QR Code' });
    await scanner.waitFor();
    // This Chromium has no camera: the square view gives way to the error and the manual entry.
    // The dialog hangs from its top edge, so its Close button stays where the pointer went.
    const close = scanner.getByRole('button', { name: 'Close' }).first();
    const before = await close.boundingBox();
    await scanner.getByRole('alert').waitFor();
    await scanner.getByLabel('QR code text or case ID').waitFor();
    expect(await close.boundingBox()).toEqual(before);
    await close.click();
    await scanner.waitFor({ state: 'detached' });
    expect(new URL(page.url()).hash).toBe('');
    expect(page.url().endsWith('#')).toBe(false);

    // The dashboard button sets the fragment, so the dialog can be linked to and reloaded.
    await page.getByRole('main').getByRole('button', { name: 'Scan Case QR Code' }).click();
    await scanner.waitFor();
    expect(new URL(page.url()).hash).toBe('#scan');
    await page.keyboard.press('Escape');
    await scanner.waitFor({ state: 'detached' });
    expect(new URL(page.url()).hash).toBe('');
  });

  it('the service worker registers at {base}sw.js and the manifest names the app', async () => {
    const { context, page } = await web.sessions.signedIn('rep');
    const failures: string[] = [];
    context.on('requestfailed', (request) =>
      failures.push(`${request.url()} ${request.failure()?.errorText}`),
    );
    context.on(
      'response',
      (response) => response.status() >= 400 && failures.push(`${response.status()} ${response.url()}`),
    );
    const scriptURL = await page.evaluate(() =>
      Promise.race([
        navigator.serviceWorker.ready.then((registration) => registration.active?.scriptURL ?? ''),
        new Promise<string>((resolve) => setTimeout(resolve, 30_000, 'not ready within 30 s')),
      ]),
    );
    if (scriptURL !== `${web.lab.baseUrl}sw.js`) {
      const state = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return JSON.stringify({
          controller: navigator.serviceWorker.controller?.state,
          installing: registration?.installing?.state,
          waiting: registration?.waiting?.state,
          active: registration?.active?.state,
          scope: registration?.scope,
        });
      });
      console.error(`service worker: ${scriptURL}; ${state}; failed requests: ${failures.join('; ')}`);
    }
    expect(scriptURL).toBe(`${web.lab.baseUrl}sw.js`);

    const sw = await context.request.get(`${web.lab.baseUrl}sw.js`);
    expect(sw.status()).toBe(200);
    expect(sw.headers()['content-type']).toMatch(/javascript/);
    expect(sw.headers()['cache-control']).toBe('no-cache');
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = await (await context.request.get(new URL(manifestHref!, web.lab.baseUrl).href)).json();
    expect(manifest.name).toBe('AlignerFlow');
    expect(manifest.icons.map((icon: { sizes: string }) => icon.sizes)).toEqual(
      expect.arrayContaining(['192x192', '512x512']),
    );
  });

  it('the theme follows the system until toggled, and the choice is kept in localStorage "theme"', async () => {
    const dark = web.sessions.track(await web.browser.newContext({ colorScheme: 'dark' }));
    const darkPage = await dark.newPage();
    await darkPage.goto(web.lab.baseUrl);
    expect(await darkPage.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');

    const { page } = await web.sessions.signedIn('admin');
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const stored = () => page.evaluate(() => localStorage.getItem('theme'));
    expect(await theme()).toBe('light');
    expect(await stored()).toBeNull();
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await theme()).toBe('dark');
    expect(await stored()).toBe('dark');
    await page.reload();
    await page.getByRole('button', { name: 'Switch to light theme' }).waitFor();
    expect(await theme()).toBe('dark');
    await eventually(async () => expect(await tileValues(page)).toEqual(SEED.tiles));
    await page.screenshot({ path: `${SHOTS}/manager-dark-desktop.png` });
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await stored()).toBe('light');
    expect(await theme()).toBe('light');
  });
});

describe('screenshots (1280 px and 375 px)', () => {
  it.each([
    ['desktop', { width: 1280, height: 800 }],
    ['mobile', MOBILE],
  ] as const)('manager dashboard, settings drawer and doctor portal (%s)', async (name, viewport) => {
    const [manager, doctor] = await Promise.all([
      web.sessions.signedIn('admin', viewport),
      web.sessions.signedIn('dr.lee', viewport),
    ]);
    await eventually(async () => expect(await tileValues(manager.page)).toEqual(SEED.tiles));
    await manager.page.screenshot({ path: `${SHOTS}/manager-${name}.png`, fullPage: true });
    if (name === 'mobile') {
      await manager.page.getByRole('button', { name: 'Open settings panel' }).click();
      await manager.page.getByRole('dialog', { name: 'Settings' }).waitFor();
    } else {
      await openSettings(manager.page);
    }
    await manager.page.locator('.user-list').getByText('dr.patel').waitFor();
    await animationsSettled(manager.page);
    await manager.page.screenshot({ path: `${SHOTS}/settings-${name}.png` });
    await manager.page
      .getByRole('dialog', { name: 'Settings' })
      .getByRole('button', { name: 'Backup & Restore' })
      .click();
    await manager.page.screenshot({ path: `${SHOTS}/settings-backup-${name}.png` });
    // The backdrop shows beside the drawer; a tap on it closes the panel.
    const drawer = await manager.page.getByRole('dialog', { name: 'Settings' }).boundingBox();
    expect(drawer!.x).toBeGreaterThan(0);
    await manager.page.mouse.click(Math.floor(drawer!.x / 2), 300);
    await manager.page.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'detached' });

    await doctor.page.getByText('Action Required: Awaiting your approval.').waitFor();
    await doctor.page.screenshot({ path: `${SHOTS}/doctor-${name}.png`, fullPage: true });
  });
});
