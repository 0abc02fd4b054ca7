import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { cache } from '../../api/cache';
import { fakeServer, type Route } from '../../test/fakeServer';
import { after, E, manager } from '../../test/fixtures';
import { EditCaseDialog } from './EditCaseDialog';
import { cached, caseAt } from '../../test/caseDetail';

/** The case as the dialog opens it. */
const opened = caseAt(
  'Thermoforming',
  { treatmentPlanNotes: 'Close the gap.', deliveryDate: '2025-04-01' },
  E.edited({ simulationVideoUrl: 'https://example.com/v.mp4' }),
);

function setup(routes: Record<string, Route> = {}) {
  const server = fakeServer(routes);
  cache.begin(manager);
  // The whole case, as opening it from the list reads it.
  cache.upsertCase(opened);
  const onClose = vi.fn();
  render(<EditCaseDialog caseId="CA-2025-123" user={manager} onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: 'Edit Case: CA-2025-123' });
  return { server, onClose, dialog };
}

describe('Edit Case modal', () => {
  it('shows the fields filled from the case', () => {
    const { dialog } = setup();
    const field = (label: string) =>
      (within(dialog).getByLabelText(label, { exact: false }) as HTMLInputElement).value;
    expect(field('Patient Name')).toBe('Emma Thompson');
    expect(field('Doctor Name')).toBe('Dr. Sarah Lee');
    expect(field('Clinic Name')).toBe('Bright Smiles Dental');
    expect(field('Priority')).toBe('Normal');
    expect(field('Treatment Plan Notes')).toBe('Close the gap.');
    expect(field('Simulation Video URL')).toBe('https://example.com/v.mp4');
    expect(field('External Simulation Link')).toBe('');
    expect(field('Due Date')).toBe('2025-04-01');
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Patient Name', { exact: false }));
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeTruthy();
  });

  it('validates required fields with the domain messages and sends nothing', () => {
    const { dialog, server } = setup();
    fireEvent.change(within(dialog).getByLabelText('Patient Name', { exact: false }), {
      target: { value: '  ' },
    });
    fireEvent.change(within(dialog).getByLabelText('Clinic Name', { exact: false }), {
      target: { value: '' },
    });
    fireEvent.change(within(dialog).getByLabelText('External Simulation Link'), {
      target: { value: 'ftp://x' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog).getByText('Patient name is required.')).toBeTruthy();
    expect(within(dialog).getByText('Clinic name is required.')).toBeTruthy();
    expect(within(dialog).getByText('External Simulation Link must be an http(s) URL.')).toBeTruthy();
    expect(within(dialog).queryByText('Doctor name is required.')).toBeNull();
    expect(server.requests).toHaveLength(0);
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Patient Name', { exact: false }));
    fireEvent.change(within(dialog).getByLabelText('Patient Name', { exact: false }), {
      target: { value: 'Emma' },
    });
    expect(within(dialog).queryByText('Patient name is required.')).toBeNull();
  });

  it('Save Changes sends PUT /cases/{id} with expectedVersion and closes', async () => {
    const { dialog, server, onClose } = setup({
      'PUT /cases/CA-2025-123': {
        body: after(opened, E.edited({ patientName: 'Emma J. Thompson', priority: 'High' })),
      },
    });
    fireEvent.change(within(dialog).getByLabelText('Patient Name', { exact: false }), {
      target: { value: 'Emma J. Thompson' },
    });
    fireEvent.change(within(dialog).getByLabelText('Priority'), { target: { value: 'High' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(server.calls('PUT', '/cases/CA-2025-123')[0].body).toEqual({
      patientName: 'Emma J. Thompson',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles Dental',
      priority: 'High',
      treatmentPlanNotes: 'Close the gap.',
      simulationVideoUrl: 'https://example.com/v.mp4',
      simulationExternalLink: '',
      deliveryDate: '2025-04-01',
      expectedVersion: opened.version,
    });
    expect(cached()?.patientName).toBe('Emma J. Thompson');
  });

  it('a 409 shows the text in the dialog, reloads the case and keeps the edits', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Someone else moved the case on meanwhile.
    const moved = after(opened, E.advanced('Thermoforming', 'Trimming & Polishing'));
    const { dialog, onClose } = setup({
      'PUT /cases/CA-2025-123': {
        status: 409,
        body: { error: 'The case was changed by someone else. Reload and try again.' },
      },
      'GET /cases/CA-2025-123': { body: moved },
    });
    fireEvent.change(within(dialog).getByLabelText('Clinic Name', { exact: false }), {
      target: { value: 'Other' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The case was changed by someone else. Reload and try again.',
    );
    await vi.waitFor(() => expect(cached()?.version).toBe(moved.version));
    expect((within(dialog).getByLabelText('Clinic Name', { exact: false }) as HTMLInputElement).value).toBe(
      'Other',
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('Cancel closes without sending', () => {
    const { dialog, server, onClose } = setup();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(server.requests).toHaveLength(0);
  });
});
