import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { cache } from '../../api/cache';
import { doctor, makeCase } from '../../test/fixtures';
import { DoctorDashboard } from './DoctorDashboard';

const cases = [
  makeCase({
    id: 'CA-2025-101',
    patientName: 'Old Active',
    status: 'Model Printing',
    createdAt: '2025-01-01T00:00:00.000Z',
  }),
  makeCase({
    id: 'CA-2025-102',
    patientName: 'Needs Review',
    status: 'Doctor Approval',
    createdAt: '2025-01-05T00:00:00.000Z',
  }),
  makeCase({
    id: 'CA-2025-103',
    patientName: 'Done Case',
    status: 'Completed',
    createdAt: '2025-01-03T00:00:00.000Z',
  }),
  makeCase({
    id: 'CA-2025-104',
    patientName: 'New Pending',
    status: 'Pending Approval',
    createdAt: '2025-01-09T00:00:00.000Z',
  }),
];

function setup(list = cases) {
  cache.begin(doctor);
  cache.setCases(list);
  const handlers = { onOpenCase: vi.fn(), onNewCase: vi.fn(), onScan: vi.fn() };
  render(<DoctorDashboard user={doctor} {...handlers} />);
  return handlers;
}

describe('DoctorDashboard', () => {
  it('shows the title, welcome line and buttons', () => {
    const handlers = setup();
    expect(screen.getByRole('heading', { name: 'Doctor Portal' })).toBeTruthy();
    expect(screen.getByText('Welcome, dr.lee')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New Case' }));
    fireEvent.click(screen.getByRole('button', { name: 'Scan Aligner Stage' }));
    expect(handlers.onNewCase).toHaveBeenCalled();
    expect(handlers.onScan).toHaveBeenCalled();
  });

  it('lists cases awaiting approval apart, the rest newest first, with the card texts', () => {
    const handlers = setup();
    const awaiting = screen.getByRole('region', { name: 'Awaiting Your Approval' });
    expect(within(awaiting).getByText('Needs Review')).toBeTruthy();
    expect(within(awaiting).getByText('Action Required: Awaiting your approval.')).toBeTruthy();

    const others = screen.getByRole('region', { name: 'Active & Completed Cases' });
    const names = within(others)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.doctor-card__patient')?.textContent);
    expect(names).toEqual(['New Pending', 'Done Case', 'Old Active']);
    expect(within(others).getByText('Awaiting approval from the lab manager.')).toBeTruthy();
    expect(within(others).getByText('View Staging')).toBeTruthy();
    expect(within(others).queryByText('Completed')).toBeNull();
    expect(within(others).getAllByText('Clear Aligner')).toHaveLength(3);
    expect(within(others).getAllByText('Due Date')).toHaveLength(3);

    fireEvent.click(within(others).getByText('Done Case'));
    expect(handlers.onOpenCase).toHaveBeenCalledWith('CA-2025-103');
  });

  it("omits 'Awaiting Your Approval' when nothing waits", () => {
    setup(cases.filter((item) => item.status !== 'Doctor Approval'));
    expect(screen.queryByText('Awaiting Your Approval')).toBeNull();
  });

  it('shows the empty state without cases', () => {
    setup([]);
    expect(screen.getByText('No Cases Found')).toBeTruthy();
    expect(screen.getByText('You do not have any assigned cases at the moment.')).toBeTruthy();
  });
});
