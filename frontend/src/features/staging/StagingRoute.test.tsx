import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { User } from '@alignerflow/domain';
import { Shell } from '../../app/Shell';
import { cache } from '../../api/cache';
import { fakeServer } from '../../test/fakeServer';
import { dashboardFigures, doctor, makeCase, manager } from '../../test/fixtures';

// Completion makes one aligner stage per sheet of the larger arch: none without sheet counts.
const withStaging = makeCase({
  id: 'CA-2024-077',
  patientName: 'Dan Brown',
  status: 'Completed',
  upperSheets: 1,
  lowerSheets: null,
});
const withoutStaging = makeCase({
  id: 'CA-2024-078',
  patientName: 'Eve Green',
  status: 'Completed',
  upperSheets: null,
  lowerSheets: null,
});

function setup(user: User) {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  const cases = [withStaging, withoutStaging];
  fakeServer({
    'GET /cases': { body: cases },
    'GET /users': { body: [manager] },
    'GET /dashboard': { body: dashboardFigures },
  });
  cache.begin(user);
  cache.setCases(cases);
  cache.setDashboard(dashboardFigures);
  render(<Shell user={user} onLogout={vi.fn()} onSessionEnded={vi.fn()} />);
}

describe('Shell: the aligner staging screen (spec section 2, main shell)', () => {
  it('a Doctor opening a Completed case with staging sees the staging screen; Back to Portal returns', () => {
    setup(doctor);
    fireEvent.click(screen.getByText('Dan Brown'));
    expect(screen.getByRole('heading', { name: 'Dan Brown Aligner Staging' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Portal' }));
    expect(screen.getByRole('heading', { name: 'Doctor Portal' })).toBeTruthy();
  });

  it('a Completed case without staging opens the case view', () => {
    setup(doctor);
    fireEvent.click(screen.getByText('Eve Green'));
    expect(screen.queryByRole('heading', { name: 'Eve Green Aligner Staging' })).toBeNull();
  });

  it("the staging screen's Scan Aligner Stage opens the scanner", () => {
    setup(doctor);
    fireEvent.click(screen.getByText('Dan Brown'));
    fireEvent.click(screen.getAllByRole('button', { name: 'Scan Aligner Stage' })[0]);
    expect(screen.getByRole('dialog', { name: 'Scan Case QR Code' })).toBeTruthy();
    expect(window.location.hash).toBe('#scan');
  });
});
