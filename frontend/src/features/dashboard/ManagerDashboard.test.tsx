import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { User } from '@alignerflow/domain';
import { cache } from '../../api/cache';
import { fakeServer } from '../../test/fakeServer';
import { after, dashboardFigures, E, makeCase, manager, sampleCases, technician } from '../../test/fixtures';
import { isAtRisk } from '@alignerflow/domain';
import { matchesSearch } from './caseQueries';
import { ManagerDashboard } from './ManagerDashboard';

function setup(user: User = manager, cases = sampleCases) {
  cache.begin(user);
  cache.setCases(cases);
  cache.setDashboard({ ...dashboardFigures, overdue: 2 });
  const handlers = { onOpenCase: vi.fn(), onEditCase: vi.fn(), onOpenSettings: vi.fn(), onScan: vi.fn() };
  render(<ManagerDashboard user={user} {...handlers} />);
  return handlers;
}

const table = () => screen.getByRole('table', { name: 'All Cases' });
const rows = () => within(table()).getAllByRole('row').slice(1) as HTMLTableRowElement[];

describe('ManagerDashboard', () => {
  it('shows the four tiles from the dashboard figures', () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Lab Dashboard' })).toBeTruthy();
    for (const [title, value] of [
      ['Total Active Cases', '3'],
      ['Pending Manager Approval', '1'],
      ['Awaiting Doctor Approval', '1'],
      ['Overdue Cases', '2'],
    ]) {
      const tile = screen.getByText(title).closest('li')!;
      expect(within(tile).getByText(value)).toBeTruthy();
    }
  });

  it('filters by case id, patient or doctor, case-insensitively', () => {
    setup();
    const search = screen.getByPlaceholderText('Search cases...');
    expect(rows()).toHaveLength(4);
    fireEvent.change(search, { target: { value: 'alice' } });
    expect(rows().map((row) => row.cells[0].textContent)).toEqual(['CA-2024-001']);
    fireEvent.change(search, { target: { value: 'ca-2024-07' } });
    expect(rows().map((row) => row.cells[0].textContent)).toEqual(['CA-2024-077']);
    fireEvent.change(search, { target: { value: 'DR. PATEL' } });
    expect(rows().map((row) => row.cells[0].textContent)).toEqual(['CA-2024-002', 'CA-2024-077']);
    fireEvent.change(search, { target: { value: 'nobody' } });
    expect(screen.getByText('No cases match your search.')).toBeTruthy();
  });

  it("shows the columns, 'On Hold' and 'N/A' for a missing due date", () => {
    setup();
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Case ID', 'Patient', 'Doctor', 'Type', 'Status', 'Due Date', 'Actions']);
    const held = rows()[1];
    expect(within(held).getByText('On Hold')).toBeTruthy();
    expect(rows()[2].cells[5].textContent).toBe('N/A');
  });

  it('hides actions, Settings and Notifications from other staff', () => {
    setup(technician);
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).not.toContain('Actions');
    expect(screen.queryByRole('button', { name: 'Settings' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Notifications' })).toBeNull();
  });

  it('opens settings on users or notifications', () => {
    const handlers = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(handlers.onOpenSettings).toHaveBeenLastCalledWith('users');
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(handlers.onOpenSettings).toHaveBeenLastCalledWith('notifications');
  });

  it('holds and resumes through the API and patches the list', async () => {
    const resumed = after(sampleCases[1], E.resumed());
    const server = fakeServer({ 'POST /cases/CA-2024-002/resume': { body: resumed } });
    setup();
    fireEvent.click(within(table()).getByRole('button', { name: 'Resume CA-2024-002' }));
    await vi.waitFor(() => expect(within(rows()[1]).getByText('Thermoforming')).toBeTruthy());
    expect(server.calls('POST', '/cases/CA-2024-002/resume')).toHaveLength(1);
  });

  it('sends hold and resume with the version the row showed, as the case screen does', async () => {
    const held = after(sampleCases[0], E.held());
    const server = fakeServer({
      'POST /cases/CA-2024-001/hold': { body: held },
      'POST /cases/CA-2024-002/resume': { body: after(sampleCases[1], E.resumed()) },
    });
    setup();
    fireEvent.click(within(table()).getByRole('button', { name: 'Hold CA-2024-001' }));
    await vi.waitFor(() => expect(within(rows()[0]).getByText('On Hold')).toBeTruthy());
    fireEvent.click(within(table()).getByRole('button', { name: 'Resume CA-2024-002' }));
    await vi.waitFor(() => expect(within(rows()[1]).getByText('Thermoforming')).toBeTruthy());
    expect(server.calls('POST', '/cases/CA-2024-001/hold')[0].body).toEqual({
      expectedVersion: sampleCases[0].version,
    });
    expect(server.calls('POST', '/cases/CA-2024-002/resume')[0].body).toEqual({
      expectedVersion: sampleCases[1].version,
    });
  });

  it('deletes only after the confirmation', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const server = fakeServer({ 'DELETE /cases/CA-2024-001': { status: 204 } });
    setup();
    const button = within(table()).getByRole('button', { name: 'Delete CA-2024-001' });
    fireEvent.click(button);
    expect(confirm).toHaveBeenCalledWith(
      'Are you sure you want to delete this case? This action cannot be undone.',
    );
    expect(server.calls('DELETE', '/cases/CA-2024-001')).toHaveLength(0);
    fireEvent.click(button);
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    expect(server.calls('DELETE', '/cases/CA-2024-001')).toHaveLength(1);
  });

  it('highlights cases at risk', () => {
    const soon = new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);
    setup(manager, [
      makeCase({
        id: 'CA-2025-100',
        patientName: 'Risky Rita',
        status: 'Model Printing',
        deliveryDate: soon,
      }),
      makeCase({
        id: 'CA-2025-101',
        patientName: 'Packed Pete',
        status: 'Packaging & Labeling',
        deliveryDate: soon,
      }),
    ]);
    const panel = screen.getByRole('region', { name: /Cases at Risk/ });
    expect(within(panel).getByText('Risky Rita')).toBeTruthy();
    expect(within(panel).queryByText('Packed Pete')).toBeNull();
    expect(rows()[0].className).toContain('at-risk');
    expect(rows()[1].className).not.toContain('at-risk');
  });
});

describe('case queries', () => {
  it('matchesSearch ignores case and surrounding spaces', () => {
    expect(matchesSearch(sampleCases[0], '  JOHNSON ')).toBe(true);
    expect(matchesSearch(sampleCases[0], 'patel')).toBe(false);
  });

  it('isAtRisk: due within 2 days, active, before Packaging & Labeling', () => {
    const now = new Date(2025, 5, 10, 12);
    const at = (deliveryDate: string | null, status = 'Thermoforming' as const) =>
      isAtRisk({ deliveryDate, status }, now);
    expect(at('2025-06-12')).toBe(true);
    expect(at('2025-06-13')).toBe(false);
    expect(at('2025-06-01')).toBe(true);
    expect(at(null)).toBe(false);
    // Timestamps count by their local calendar day.
    expect(at(new Date(2025, 5, 12, 23, 59).toISOString())).toBe(true);
    expect(at(new Date(2025, 5, 13, 0, 0).toISOString())).toBe(false);
    expect(isAtRisk({ deliveryDate: '2025-06-11', status: 'Delivery to Doctor' }, now)).toBe(false);
    expect(isAtRisk({ deliveryDate: '2025-06-11', status: 'Completed' }, now)).toBe(false);
  });
});
