import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Case, StageStatus, User } from '@alignerflow/domain';
import { cache } from '../../api/cache';
import { Toaster } from '../../components/Toaster';
import { fakeServer } from '../../test/fakeServer';
import { after, doctor, E, makeCase, manager, technician, type Given } from '../../test/fixtures';
import { AlignerStagingScreen } from './AlignerStagingScreen';

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY - 60_000).toISOString();

/** Dan's completed case (20 stages, the larger arch's sheets), then his aligners' stage changes. */
const danCase = (...more: Given[]) =>
  makeCase(
    {
      id: 'CA-2024-077',
      patientName: 'Dan Brown',
      doctorName: 'Dr. Patel',
      status: 'Completed',
      upperSheets: 20,
      lowerSheets: 18,
    },
    ...more,
  );
const stage = (stageNumber: number, status: StageStatus, at: string): Given => [
  E.stage(stageNumber, status),
  doctor,
  at,
];
/** Stages 1 and 2 worn (15 and 5 days), stage 3 worn since `since`. */
const wearing = (since = daysAgo(20)) => [
  stage(1, 'In Progress', daysAgo(40)),
  stage(1, 'Completed', daysAgo(25)),
  stage(2, 'In Progress', daysAgo(25)),
  stage(2, 'Completed', daysAgo(20)),
  stage(3, 'In Progress', since),
];
const completedCase = danCase(...wearing());

function setup(
  user: User = doctor,
  item: Case = completedCase,
  routes: Parameters<typeof fakeServer>[0] = {},
) {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const server = fakeServer(routes);
  cache.begin(user);
  cache.setCases([item]);
  const handlers = { onBack: vi.fn(), onScan: vi.fn() };
  render(
    <>
      <AlignerStagingScreen caseId={item.id} user={user} {...handlers} />
      <Toaster />
    </>,
  );
  return { server, handlers };
}

const stageRow = (n: number) => screen.getByRole('listitem', { name: `Stage ${n}` });

beforeEach(() => {
  const { unmount } = render(<Toaster />);
  screen.queryAllByRole('button', { name: 'Dismiss' }).forEach((button) => fireEvent.click(button));
  unmount();
});

describe('AlignerStagingScreen', () => {
  it('shows the heading, case id and doctor, Back to Portal and Scan Aligner Stage', () => {
    const { handlers } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Dan Brown Aligner Staging' })).toBeTruthy();
    expect(screen.getByText('CA-2024-077')).toBeTruthy();
    expect(screen.getByText('Dr. Patel')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Portal' }));
    fireEvent.click(screen.getByRole('button', { name: 'Scan Aligner Stage' }));
    expect(handlers.onBack).toHaveBeenCalled();
    expect(handlers.onScan).toHaveBeenCalled();
  });

  it('shows the overall progress ring and bar, Time in Treatment and Total Planned Time (shared maths)', () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Overall Treatment Progress' })).toBeTruthy();
    expect(screen.getByRole('img', { name: '10% complete' })).toBeTruthy();
    expect(screen.getByText('2 / 20')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Overall Treatment Progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('10');
    // 15 + 5 days of completed stages, 20 days of the stage in progress.
    const time = screen.getByRole('heading', { name: 'Time in Treatment' }).parentElement!;
    expect(within(time).getByText('40 days')).toBeTruthy();
    const planned = screen.getByRole('heading', { name: 'Total Planned Time' }).parentElement!;
    expect(within(planned).getByText('300 days')).toBeTruthy();
    expect(screen.getByText('Next up is Stage 3. Keep up the great work!')).toBeTruthy();
  });

  it("lists the stages with their buttons, remaining days and 'Overdue by N day(s)' in red, capped at 100 %", () => {
    setup();
    expect(within(stageRow(1)).getByRole('button', { name: 'Re-open Stage' })).toBeTruthy();
    expect(within(stageRow(1)).getByText('Completed', { selector: '.stage-status' })).toBeTruthy();
    const current = stageRow(3);
    expect(within(current).getByRole('button', { name: 'Mark as Completed' })).toBeTruthy();
    const overdue = within(current).getByText('Overdue by 5 day(s)');
    expect(overdue.className).toBe('stage-row__overdue');
    expect(within(current).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(within(stageRow(4)).getByRole('button', { name: 'Start Stage' })).toBeTruthy();
    expect(within(stageRow(4)).getByText('15 days remaining')).toBeTruthy();
    expect(within(stageRow(20)).getByText('Not Started')).toBeTruthy();
  });

  it('shows remaining days of a stage in progress that is not overdue', () => {
    setup(doctor, danCase(...wearing(daysAgo(4))));
    expect(within(stageRow(3)).getByText('11 days remaining')).toBeTruthy();
    expect(within(stageRow(3)).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('27');
    expect(screen.queryByText(/Overdue by/)).toBeNull();
  });

  it('Start Stage posts the transition with the version seen and shows the answer', async () => {
    const { server } = setup(doctor, completedCase, {
      // Started on the server after the screen was drawn: never "in the future" for the screen.
      'POST /cases/CA-2024-077/staging/4/start': async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { body: after(completedCase, stage(4, 'In Progress', new Date().toISOString())) };
      },
    });
    fireEvent.click(within(stageRow(4)).getByRole('button', { name: 'Start Stage' }));
    await waitFor(() =>
      expect(within(stageRow(4)).getByRole('button', { name: 'Mark as Completed' })).toBeTruthy(),
    );
    expect(server.calls('POST', '/cases/CA-2024-077/staging/4/start')[0].body).toEqual({
      expectedVersion: completedCase.version,
    });
    expect(within(stageRow(4)).getByText('15 days remaining')).toBeTruthy();
  });

  it("shows the server's refusal", async () => {
    setup(manager, completedCase, {
      'POST /cases/CA-2024-077/staging/1/reopen': {
        status: 409,
        body: { error: 'The case was changed by someone else. Reload and try again.' },
      },
    });
    fireEvent.click(within(stageRow(1)).getByRole('button', { name: 'Re-open Stage' }));
    expect(
      await screen.findByText('The case was changed by someone else. Reload and try again.'),
    ).toBeTruthy();
    expect(screen.getByText('Stage not changed')).toBeTruthy();
  });

  it('congratulates when every stage is done', () => {
    // Each of the 20 stages worn for 15 days, one after the other.
    const worn = Array.from({ length: 20 }, (_, index) => [
      stage(index + 1, 'In Progress', daysAgo(15 * (20 - index))),
      stage(index + 1, 'Completed', daysAgo(15 * (19 - index))),
    ]).flat();
    setup(doctor, danCase(...worn));
    expect(screen.getByText('Congratulations! The treatment is complete.')).toBeTruthy();
    expect(screen.getByRole('img', { name: '100% complete' })).toBeTruthy();
    expect(screen.getByText('20 / 20')).toBeTruthy();
  });

  it('offers no stage buttons to a role that may not change stages', () => {
    setup(technician);
    expect(screen.queryByRole('button', { name: 'Start Stage' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark as Completed' })).toBeNull();
    expect(screen.getByText('Next up is Stage 3. Keep up the great work!')).toBeTruthy();
  });
});
