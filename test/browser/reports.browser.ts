import { mkdirSync, readFileSync } from 'node:fs';
import { caseStreamId, type Actor, type CaseCommand } from '@alignerflow/domain';
import type { Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { CaseCommandService } from '../../backend/src/cases/case-command.service';
import { EventStore } from '../../backend/src/event-store/event-store';
import { ProjectionRebuilder } from '../../backend/src/rebuild/projection-rebuilder';
import { useBrowserApp } from './support/browser-app';

/**
 * The Reports screen (issue 16) in Debian's Chromium against the real backend: a lab's last
 * weeks of completed cases, back-dated through the command path as the demo seed is, charts
 * drawn at 1280 and 375 px, and the CSV links downloading what the API serves.
 */
const web = useBrowserApp();
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/alignerflow-shots';
mkdirSync(SHOTS, { recursive: true });
const MOBILE = { width: 375, height: 740, isMobile: true };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const ADMIN: Actor = { username: 'admin', role: 'Manager' };
const TECH: Actor = { username: 'tech', role: 'Technician' };
const DOCTORS = [
  { name: 'Dr. Sarah Lee', user: { username: 'dr.lee', role: 'Doctor' } as Actor },
  { name: 'Dr. Raj Patel', user: { username: 'dr.patel', role: 'Doctor' } as Actor },
];
const CLINICS = ['Bright Smiles Dental', 'Downtown Orthodontics', 'Riverside Family Dentistry'];
const CASES = 12;

/** Twelve cases completed over the last seven weeks, some late, through the real command path. */
async function seedCompletedCases(): Promise<void> {
  const commands = web.lab.app.get(CaseCommandService);
  for (let n = 0; n < CASES; n++) {
    const id = `CA-2026-${8000 + n}`;
    const doctor = DOCTORS[n % 2];
    let at = Date.now() - (50 - 4 * n) * DAY;
    const run = (actor: Actor, command: CaseCommand) =>
      commands.execute(id, command, actor, {
        correlationId: 'reports-browser',
        at: new Date(at).toISOString(),
        beforeAppend:
          command.type === 'CreateCase'
            ? (runner) =>
                runner.query('INSERT INTO case_ids (id, year, suffix) VALUES ($1, 2026, $2)', [id, 8000 + n])
            : undefined,
      });
    await run(ADMIN, {
      type: 'CreateCase',
      caseId: id,
      input: {
        patientName: `Patient ${n + 1}`,
        doctorName: doctor.name,
        clinicName: CLINICS[n % 3],
        priority: 'Normal',
        // Every third case is due too soon: it will be late.
        deliveryDate: new Date(at + (n % 3 === 0 ? 2 : 14) * DAY).toISOString().slice(0, 10),
      },
    });
    const step = async (hours: number, actor: Actor, command: CaseCommand) => {
      at += hours * HOUR;
      await run(actor, command);
    };
    await step(2 + (n % 4), ADMIN, {
      type: 'ApproveCase',
      doctorUsername: doctor.user.username,
      doctor: { username: doctor.user.username, role: 'Doctor' },
    });
    await step(20 + 3 * n, ADMIN, { type: 'AdvanceStage' });
    await step(6 + (n % 5) * 4, doctor.user, { type: 'ApproveTreatmentPlan' });
    for (const hours of [8, 12, 5, 3]) await step(hours + (n % 3), TECH, { type: 'AdvanceStage' });
    await step(4, ADMIN, { type: 'AdvanceStage' });
    await step(24 + 6 * (n % 4), ADMIN, { type: 'AdvanceStage' });
  }
  // Remakes ordered of three of them (a reorder's CaseCreated carries its origin), then a rebuild.
  const store = web.lab.app.get(EventStore);
  const [created] = await store.readStream(caseStreamId('CA-2026-8000'));
  const reasons = ['broken', 'poor_fit', 'broken'];
  await store.appendStreams(
    reasons.map((reasonCode, index) => ({
      streamId: caseStreamId(`CA-2026-${8100 + index}`),
      expectedVersion: 0,
      events: [
        {
          type: 'CaseCreated',
          data: {
            ...(created.data as object),
            id: `CA-2026-${8100 + index}`,
            origin: { caseId: `CA-2026-${8000 + index}`, kind: 'remake', reasonCode, reason: '' },
          },
        },
      ],
      metadata: { actor: ADMIN, correlationId: 'reports-browser' },
      recordedAt: new Date(Date.now() - (10 - index) * DAY).toISOString(),
    })),
  );
  await new ProjectionRebuilder(web.lab.app.get(DataSource), store).run();
}

beforeAll(async () => {
  await seedCompletedCases();
});

afterEach(() => web.sessions.closeAll());

const CHARTS = ['weeks', 'stages', 'remakes', 'doctors', 'clinics'];

/** Each chart drew its bars (recharts' SVG, not a placeholder). */
async function expectChartsDrawn(page: Page): Promise<void> {
  for (const chart of CHARTS) {
    const bars = page.locator(`[data-chart="${chart}"] .recharts-bar-rectangle`);
    await bars.first().waitFor();
    expect([chart, (await bars.count()) > 0]).toEqual([chart, true]);
    const box = await page.locator(`[data-chart="${chart}"] .recharts-wrapper > svg`).first().boundingBox();
    expect([chart, box!.width > 200, box!.height > 100]).toEqual([chart, true, true]);
  }
}

async function tile(page: Page, title: string): Promise<string> {
  return (await page.locator('.tile', { hasText: title }).locator('.tile__value').textContent()) ?? '';
}

describe('Reports screen', () => {
  it('at 1280 px: figures, five charts, and CSV downloads the API serves', async () => {
    const { page } = await web.sessions.signedIn('admin');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('button', { name: 'Reports' })
      .click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Completions per week' }).waitFor();
    // The seed's own completed case (CA-2024-077) may fall in the twelve weeks too.
    const completed = Number(await tile(page, 'Completed'));
    expect(completed).toBeGreaterThanOrEqual(CASES);
    expect(await tile(page, 'Remakes ordered')).toBe('3');
    await expectChartsDrawn(page);
    await page.screenshot({ path: `${SHOTS}/reports-1280.png`, fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV: Time per stage' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^stages-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const stages = readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(stages[0]).toBe('status,cases,averageHours,p90Hours');
    expect(stages[3]).toMatch(new RegExp(`^Digital Planning,${completed},`));

    const [cases] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Completed cases (CSV)' }).click(),
    ]);
    const rows = readFileSync((await cases.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(rows[0]).toBe('id,patient,doctor,clinic,created,due,completed,onTime,turnaroundDays,remakes');
    expect(rows).toHaveLength(completed + 1);
    expect(rows.find((row) => row.startsWith('CA-2026-8000,'))).toMatch(/,false,[\d.]+,1$/);
  });

  it('at 375 px: reached from the bottom navigation, charts readable, nothing wider than the screen', async () => {
    const { page } = await web.sessions.signedIn('admin', MOBILE);
    await page
      .getByRole('navigation', { name: 'Mobile navigation' })
      .getByRole('button', { name: 'Reports' })
      .click();
    await page.getByRole('table', { name: 'Completions per week' }).waitFor();
    await expectChartsDrawn(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // Every stage keeps a readable label beside its bars.
    const labels = await page
      .locator('[data-chart="stages"] .recharts-yAxis .recharts-cartesian-axis-tick')
      .count();
    expect(labels).toBe(10);
    await page.screenshot({ path: `${SHOTS}/reports-375.png`, fullPage: true });
    // The page in screens, to look at each part at its real size.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let top = 0, part = 0; top < height; top += 740, part++) {
      await page.evaluate((y) => window.scrollTo(0, y), top);
      await page.screenshot({ path: `${SHOTS}/reports-375-${part}.png` });
    }
  });

  it('is not offered to other staff', async () => {
    const { page } = await web.sessions.signedIn('tech', MOBILE);
    await page.getByRole('navigation', { name: 'Mobile navigation' }).waitFor();
    expect(await page.getByRole('button', { name: 'Reports' }).count()).toBe(0);
  });
});
