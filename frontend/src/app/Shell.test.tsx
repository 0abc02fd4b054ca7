import { describe, expect, it, vi } from 'vitest';
import { toCaseSummary } from '@alignerflow/domain';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { cache } from '../api/cache';
import { fakeServer } from '../test/fakeServer';
import { dashboardFigures, doctor, manager, sampleCases, technician } from '../test/fixtures';
import { Shell } from './Shell';

function setup(user = manager) {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  fakeServer({
    'GET /cases': { body: sampleCases.map(toCaseSummary) },
    'GET /cases/CA-2024-001': { body: sampleCases[0] },
    'GET /users': { body: [manager] },
    'GET /dashboard': { body: dashboardFigures },
    'GET /reports/summary': { status: 500, body: { error: 'Not in this test.' } },
    'GET /work-queue': { body: [] },
  });
  cache.begin(user);
  cache.setCases(sampleCases.map(toCaseSummary));
  cache.setDashboard(dashboardFigures);
  return render(<Shell user={user} onLogout={vi.fn()} onSessionEnded={vi.fn()} />);
}

describe('Shell', () => {
  it('opens a Technician on My Queue, with the Lab Dashboard a tab away', async () => {
    setup(technician);
    expect(screen.getByRole('heading', { level: 1, name: /My Queue/ })).toBeTruthy();
    expect(await screen.findByText(/Nothing in your queue/)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Lab Dashboard' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Lab Dashboard' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Lab Dashboard' }).getAttribute('aria-selected')).toBe('true');
  });

  it('opens a Manager on the Lab Dashboard, with My Queue a tab away', async () => {
    setup(manager);
    expect(screen.getByRole('heading', { level: 1, name: 'Lab Dashboard' })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'My Queue' }));
    expect(screen.getByRole('heading', { level: 1, name: /My Queue/ })).toBeTruthy();
  });

  it('gives a Doctor no home tabs', () => {
    setup(doctor);
    expect(screen.queryByRole('tablist', { name: 'Home screens' })).toBeNull();
  });

  it('opens the scanner dialog from #scan and removes the fragment when it closes', () => {
    window.history.replaceState(null, '', '/#scan');
    setup();
    const dialog = screen.getByRole('dialog', { name: 'Scan Case QR Code' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByText('Point your camera at the QR code on the case file.')).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(window.location.hash).toBe('');
    expect(window.location.href.endsWith('#')).toBe(false);
  });

  it("the dashboard's Scan Case QR Code button sets #scan", () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Scan Case QR Code' }));
    expect(window.location.hash).toBe('#scan');
    expect(screen.getByRole('dialog', { name: 'Scan Case QR Code' })).toBeTruthy();
  });

  it('selecting a case opens it, read whole; Edit Case appears for a manager; Back returns', async () => {
    setup();
    fireEvent.click(within(screen.getByRole('table', { name: 'All Cases' })).getByText('Alice Johnson'));
    expect(await screen.findByRole('heading', { name: 'Alice Johnson' })).toBeTruthy();
    expect(screen.getByText('CA-2024-001', { selector: 'dd' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Edit Case' }));
    expect(screen.getByRole('dialog', { name: 'Edit Case: CA-2024-001' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Back to Dashboard' }));
    expect(screen.getByRole('heading', { name: 'Lab Dashboard' })).toBeTruthy();
  });

  it('dialogs keep focus inside and give it back when they close', () => {
    setup();
    const opener = within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('button', {
      name: 'New Case',
    });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'New Clear Aligner Case' });
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    const close = within(dialog).getByRole('button', { name: 'Close' });
    const next = within(dialog).getByRole('button', { name: 'Next' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Patient Name'));
    next.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(next);
    act(() => cancel.click());
    expect(document.activeElement).toBe(opener);
  });

  it('shows the Doctor Portal to a doctor and the bottom navigation', () => {
    setup(doctor);
    expect(screen.getByRole('heading', { name: 'Doctor Portal' })).toBeTruthy();
    const bottom = screen.getByRole('navigation', { name: 'Mobile navigation' });
    expect(
      within(bottom)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Home', 'New', 'Scan', 'Invoices', 'Logout']);
  });

  it('a manager opens Reports from the header and the bottom navigation; Home returns', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setup();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Reports' }));
    expect(await screen.findByRole('heading', { name: 'Reports', level: 1 }, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByRole('alert')).toBeTruthy();
    const bottom = screen.getByRole('navigation', { name: 'Mobile navigation' });
    fireEvent.click(within(bottom).getByRole('button', { name: 'Home' }));
    expect(screen.getByRole('heading', { name: 'Lab Dashboard' })).toBeTruthy();
    fireEvent.click(within(bottom).getByRole('button', { name: 'Reports' }));
    expect(await screen.findByRole('heading', { name: 'Reports', level: 1 }, { timeout: 5000 })).toBeTruthy();
  });

  it('a manager opens Billing, loaded when asked for', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setup();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Billing' }));
    expect(await screen.findByRole('heading', { name: 'Billing', level: 1 }, { timeout: 5000 })).toBeTruthy();
  });

  it('offers Billing to lab staff who bill, Invoices to a doctor, neither to a technician', () => {
    setup(technician);
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('button', { name: 'Billing' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Invoices' })).toBeNull();
  });

  it('offers Reports to no one but managers', () => {
    setup(technician);
    const bottom = screen.getByRole('navigation', { name: 'Mobile navigation' });
    expect(within(bottom).queryByRole('button', { name: 'Reports' })).toBeNull();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('button', { name: 'Reports' })).toBeNull();
  });
});
