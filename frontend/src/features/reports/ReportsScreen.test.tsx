import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReportSummary } from '@alignerflow/domain';
import { act } from 'react';
import { cache } from '../../api/cache';
import { fakeServer } from '../../test/fakeServer';
import { makeCase, manager } from '../../test/fixtures';
import { ReportsScreen } from './ReportsScreen';

const SUMMARY: ReportSummary = {
  from: '2026-09-07',
  to: '2026-11-25',
  completed: 4,
  onTime: 3,
  onTimeRate: 0.75,
  averageTurnaroundDays: 9.46,
  byStage: [
    { status: 'Pending Approval', cases: 4, averageHours: 2.25, p90Hours: 3.4 },
    { status: 'Digital Planning', cases: 4, averageHours: 23, p90Hours: 35.2 },
  ],
  byWeek: [
    { weekStart: '2026-11-16', completed: 3, onTime: 2 },
    { weekStart: '2026-11-23', completed: 1, onTime: 1 },
  ],
  remakes: { total: 3, byReasonCode: { poor_fit: 1, broken: 2 } },
  byDoctor: [{ name: 'Dr. Sarah Lee', completed: 4, onTime: 3, averageTurnaroundDays: 9.46 }],
  byClinic: [
    { name: 'Bright Smiles Dental', completed: 3, onTime: 2, averageTurnaroundDays: 10 },
    { name: 'Downtown Orthodontics', completed: 1, onTime: 1, averageTurnaroundDays: 7.84 },
  ],
};

const TODAY = new Date(2026, 10, 25, 15, 0); // Wednesday 25 November 2026

function setup(answer: Parameters<typeof fakeServer>[0][string] = { body: SUMMARY }) {
  const server = fakeServer({ 'GET /reports/summary': answer });
  render(<ReportsScreen today={TODAY} />);
  const urls = () => server.fetch.mock.calls.map(([url]) => String(url));
  return { server, urls };
}

const tile = (title: string) => screen.getByText(title, { selector: '.tile__title' }).closest('li')!;
const rowsOf = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('ReportsScreen', () => {
  it('asks for the last twelve weeks, from a Monday, and shows the tiles', async () => {
    const { urls } = setup();
    expect(screen.getByRole('heading', { name: 'Reports' })).toBeTruthy();
    await screen.findByRole('table', { name: 'Completions per week' });
    expect(urls()).toEqual(['/api/reports/summary?from=2026-09-07&to=2026-11-25']);
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-09-07');
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2026-11-25');
    expect(within(tile('Completed')).getByText('4')).toBeTruthy();
    expect(tile('On time').textContent).toContain('75%');
    expect(tile('On time').textContent).toContain('3 of 4');
    expect(tile('Average turnaround').textContent).toContain('9.5 d');
    expect(within(tile('Remakes ordered')).getByText('3')).toBeTruthy();
  });

  it('shows every table of the summary', async () => {
    setup();
    await screen.findByRole('table', { name: 'Completions per week' });
    expect(rowsOf('Completions per week')).toEqual([
      ['2026-11-16', '3', '2'],
      ['2026-11-23', '1', '1'],
    ]);
    expect(rowsOf('Time per stage')).toEqual([
      ['Pending Approval', '4', '2.25', '3.4'],
      ['Digital Planning', '4', '23', '35.2'],
    ]);
    expect(rowsOf('Remakes by reason')).toEqual([
      ['Broken', '2'],
      ['Poor fit', '1'],
    ]);
    expect(rowsOf('Cases per doctor')).toEqual([['Dr. Sarah Lee', '4', '3', '9.46']]);
    expect(rowsOf('Cases per clinic')).toEqual([
      ['Bright Smiles Dental', '3', '2', '10'],
      ['Downtown Orthodontics', '1', '1', '7.84'],
    ]);
  });

  it('links each table to its CSV download for the range shown', async () => {
    setup();
    await screen.findByRole('table', { name: 'Completions per week' });
    const range = 'from=2026-09-07&to=2026-11-25';
    for (const [title, table] of [
      ['Completions per week', 'weeks'],
      ['Time per stage', 'stages'],
      ['Remakes by reason', 'remakes'],
      ['Cases per doctor', 'doctors'],
      ['Cases per clinic', 'clinics'],
    ]) {
      const link = screen.getByRole('link', { name: `Download CSV: ${title}` });
      expect(link.getAttribute('href')).toBe(`/api/reports/${table}.csv?${range}`);
      expect(link.hasAttribute('download')).toBe(true);
    }
    expect(screen.getByRole('link', { name: 'Completed cases (CSV)' }).getAttribute('href')).toBe(
      `/api/reports/cases.csv?${range}`,
    );
  });

  it('asks again when the range changes, and not for a range that ends before it starts', async () => {
    const { urls } = setup();
    await screen.findByRole('table', { name: 'Completions per week' });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    await waitFor(() => expect(urls().at(-1)).toBe('/api/reports/summary?from=2026-11-01&to=2026-11-25'));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-12-01' } });
    expect(screen.getByRole('alert').textContent).toBe('Choose a start date on or before the end date.');
    expect(urls()).toHaveLength(2);
    expect(screen.queryByRole('link', { name: 'Completed cases (CSV)' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Last 12 weeks' }));
    await waitFor(() => expect(urls().at(-1)).toBe('/api/reports/summary?from=2026-09-07&to=2026-11-25'));
  });

  it("shows the server's refusal in words", async () => {
    setup({ status: 403, body: { error: 'Reports are for managers.' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Reports are for managers.');
  });

  it('says so when nothing was completed', async () => {
    setup({
      body: {
        ...SUMMARY,
        completed: 0,
        onTime: 0,
        onTimeRate: 0,
        averageTurnaroundDays: 0,
        byDoctor: [],
        byClinic: [],
        remakes: { total: 0, byReasonCode: {} },
      },
    });
    await screen.findByRole('table', { name: 'Completions per week' });
    expect(tile('On time').textContent).toContain('—');
    expect(screen.getByText('No remake was ordered in this range.')).toBeTruthy();
    expect(screen.getAllByText('No case was completed in this range.')).toHaveLength(2);
  });

  it('asks again, once, when the live case list changes', async () => {
    cache.begin(manager);
    const { urls } = setup();
    await screen.findByRole('table', { name: 'Completions per week' });
    act(() => cache.setCases([makeCase({ id: 'CA-2026-101' })]));
    act(() => cache.setCases([makeCase({ id: 'CA-2026-101', status: 'Completed' })]));
    await waitFor(() => expect(urls()).toHaveLength(2), { timeout: 3000 });
    expect(urls()[1]).toBe('/api/reports/summary?from=2026-09-07&to=2026-11-25');
    // The figures stay on screen meanwhile: no loading line for a live refresh.
    expect(screen.queryByText('Loading the report…')).toBeNull();
  });
});
