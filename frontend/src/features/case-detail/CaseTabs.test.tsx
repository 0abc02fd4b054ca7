import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { cache } from '../../api/cache';
import {
  after,
  designer,
  doctor,
  E,
  manager,
  representative,
  technician,
  type Given,
} from '../../test/fixtures';
import { cached, caseAt, renderDetail } from '../../test/caseDetail';

const tab = (name: string) => screen.getByRole('tab', { name });
const panel = () => screen.getByRole('tabpanel');
const value = (label: string) => within(panel()).getByText(label).nextElementSibling?.textContent;

describe('side tabs', () => {
  it("default to 'Details & Actions' and move with the arrow keys", () => {
    renderDetail(technician, caseAt('Thermoforming', { treatmentPlanNotes: '' }));
    expect(screen.getAllByRole('tab').map((item) => item.firstChild?.textContent)).toEqual([
      'Details & Actions',
      'Pricing',
      'Communication',
      'History',
    ]);
    // The case's notes so far, its creation's and its approval's, are counted on their tab.
    expect(tab('Communication').querySelector('.cd-tabs__count')?.textContent).toBe('2');
    expect(tab('Details & Actions').getAttribute('aria-selected')).toBe('true');
    expect(value('Doctor')).toBe('Dr. Sarah Lee');
    expect(value('Clinic')).toBe('Bright Smiles Dental');
    expect(value('Assigned')).toBe('Unassigned');
    expect(value('Treatment Plan Notes')).toBe('No notes provided.');
    fireEvent.keyDown(tab('Details & Actions'), { key: 'ArrowRight' });
    expect(tab('Pricing').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('Pricing'));
    fireEvent.keyDown(tab('Pricing'), { key: 'End' });
    expect(tab('History').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tab('History'), { key: 'ArrowRight' });
    expect(tab('Details & Actions').getAttribute('aria-selected')).toBe('true');
  });

  it('Details shows the treatment plan notes when there are some', () => {
    renderDetail(technician, caseAt('Thermoforming', { treatmentPlanNotes: 'Close the midline gap.' }));
    expect(value('Treatment Plan Notes')).toBe('Close the midline gap.');
  });
});

describe('Pricing tab', () => {
  it('shows price, sheets and N/A for absent values', () => {
    renderDetail(technician, caseAt('Thermoforming', { price: 1250, upperSheets: 18, lowerSheets: null }));
    fireEvent.click(tab('Pricing'));
    expect(value('Case Price')).toBe('$1250.00');
    expect(value('Upper Sheets')).toBe('18');
    expect(value('Lower Sheets')).toBe('N/A');
    expect(within(panel()).queryByRole('button', { name: 'Edit Details' })).toBeNull();
  });

  it.each([
    ['Manager', manager, true],
    ['Representative', representative, true],
    ['Designer', designer, false],
    ['Technician', technician, false],
    ['Doctor', doctor, false],
  ])("'Edit Details' for %s: %s", (_role, user, shown) => {
    renderDetail(user, caseAt('Thermoforming'));
    fireEvent.click(tab('Pricing'));
    expect(within(panel()).queryByRole('button', { name: 'Edit Details' }) !== null).toBe(shown);
  });

  it('Cancel restores the previous values', () => {
    const { server } = renderDetail(
      manager,
      caseAt('Thermoforming', { price: 1250, upperSheets: 18, lowerSheets: 16 }),
    );
    fireEvent.click(tab('Pricing'));
    fireEvent.click(within(panel()).getByRole('button', { name: 'Edit Details' }));
    const price = within(panel()).getByLabelText('Case Price') as HTMLInputElement;
    expect(price.value).toBe('1250.00');
    fireEvent.change(price, { target: { value: '99' } });
    fireEvent.change(within(panel()).getByLabelText('Upper Sheets'), { target: { value: '3' } });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Cancel' }));
    expect(value('Case Price')).toBe('$1250.00');
    expect(value('Upper Sheets')).toBe('18');
    fireEvent.click(within(panel()).getByRole('button', { name: 'Edit Details' }));
    expect((within(panel()).getByLabelText('Case Price') as HTMLInputElement).value).toBe('1250.00');
    expect((within(panel()).getByLabelText('Upper Sheets') as HTMLInputElement).value).toBe('18');
    expect((within(panel()).getByLabelText('Lower Sheets') as HTMLInputElement).value).toBe('16');
    expect(server.requests).toHaveLength(0);
  });

  it('Save sends the parsed values (empty → absent) with the version seen', async () => {
    const item = caseAt('Thermoforming');
    const saved = after(item, [E.priced(1399.5, 20, null), representative]);
    const { server } = renderDetail(representative, item, {
      routes: { 'PUT /cases/CA-2025-123/pricing': { body: saved } },
    });
    fireEvent.click(tab('Pricing'));
    fireEvent.click(within(panel()).getByRole('button', { name: 'Edit Details' }));
    fireEvent.change(within(panel()).getByLabelText('Case Price'), { target: { value: '1399.50' } });
    fireEvent.change(within(panel()).getByLabelText('Upper Sheets'), { target: { value: '20' } });
    fireEvent.change(within(panel()).getByLabelText('Lower Sheets'), { target: { value: '' } });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(cached()?.version).toBe(saved.version));
    expect(server.calls('PUT', '/cases/CA-2025-123/pricing')[0].body).toEqual({
      price: 1399.5,
      upperSheets: 20,
      lowerSheets: null,
      expectedVersion: item.version,
    });
    expect(value('Case Price')).toBe('$1399.50');
    expect(value('Lower Sheets')).toBe('N/A');
  });

  it('Save sends the version the form started from: a change made meanwhile answers 409', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    const opened = caseAt('Thermoforming', { price: 1000, upperSheets: 18, lowerSheets: 16 });
    const changed = after(opened, E.priced(1050, 18, 16));
    const saved = after(changed, E.priced(1100, 18, 16));
    const { server } = renderDetail(manager, opened, {
      routes: {
        'PUT /cases/CA-2025-123/pricing': () =>
          ++calls === 1
            ? { status: 409, body: { error: 'The case was changed by someone else. Reload and try again.' } }
            : { body: saved },
        'GET /cases/CA-2025-123': { body: changed },
      },
    });
    fireEvent.click(tab('Pricing'));
    fireEvent.click(within(panel()).getByRole('button', { name: 'Edit Details' }));
    fireEvent.change(within(panel()).getByLabelText('Case Price'), { target: { value: '1100' } });
    // Someone else changes the case while the form is open (the live stream brings the change).
    act(() => cache.upsertCase(changed));
    fireEvent.click(within(panel()).getByRole('button', { name: 'Save' }));
    expect((await within(panel()).findByRole('alert')).textContent).toBe(
      'The case was changed by someone else. Reload and try again.',
    );
    expect((server.calls('PUT', '/cases/CA-2025-123/pricing')[0].body as any).expectedVersion).toBe(
      opened.version,
    );
    // The form kept the user's value; saving again applies to the case now shown.
    expect((within(panel()).getByLabelText('Case Price') as HTMLInputElement).value).toBe('1100');
    const save = within(panel()).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await vi.waitFor(() => expect(server.calls('GET', '/cases/CA-2025-123')).toHaveLength(1));
    await vi.waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await vi.waitFor(() => expect(cached()?.version).toBe(saved.version));
    expect((server.calls('PUT', '/cases/CA-2025-123/pricing')[1].body as any).expectedVersion).toBe(
      changed.version,
    );
  });

  it('refuses out-of-range values with the domain text', () => {
    const { server } = renderDetail(manager, caseAt('Thermoforming'));
    fireEvent.click(tab('Pricing'));
    fireEvent.click(within(panel()).getByRole('button', { name: 'Edit Details' }));
    fireEvent.change(within(panel()).getByLabelText('Upper Sheets'), { target: { value: '500' } });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Save' }));
    expect(within(panel()).getByRole('alert').textContent).toBe(
      'Sheet counts must be whole numbers between 0 and 200.',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('Communication tab', () => {
  const printed: Given = [E.note('Models printed.'), technician, '2025-03-20T15:00:00.000Z'];

  it('lists notes with author, time and text in a list capped at 15rem', () => {
    renderDetail(technician, caseAt('Thermoforming', {}, printed));
    fireEvent.click(tab('Communication'));
    const list = within(panel()).getByRole('list', { name: 'Notes' });
    const items = within(list).getAllByRole('listitem');
    // The case's creation and approval notes, then the technician's.
    expect(items).toHaveLength(3);
    expect(within(items[0]).getByText('Case created by Doctor and submitted for approval.')).toBeTruthy();
    expect(within(items[2]).getByText('tech')).toBeTruthy();
    expect(within(items[2]).getByText('Models printed.')).toBeTruthy();
    expect(items[2].querySelector('time')?.getAttribute('dateTime')).toBe('2025-03-20T15:00:00.000Z');
    expect(list.className).toContain('cd-notes');
  });

  it('Add Note is not sendable when empty after trimming; sends the trimmed text', async () => {
    const item = caseAt('Thermoforming', {}, printed);
    const added = after(item, [E.note('Ready.'), technician]);
    const { server } = renderDetail(technician, item, {
      routes: { 'POST /cases/CA-2025-123/notes': { status: 201, body: added } },
    });
    fireEvent.click(tab('Communication'));
    const textarea = within(panel()).getByRole('textbox', { name: 'Add Note' });
    const send = within(panel()).getByRole('button', { name: 'Add Note' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(textarea, { target: { value: '   \n ' } });
    expect(send.disabled).toBe(true);
    fireEvent.change(textarea, { target: { value: '  Ready.  ' } });
    expect(send.disabled).toBe(false);
    fireEvent.click(send);
    await within(panel()).findByText('Ready.');
    expect(server.calls('POST', '/cases/CA-2025-123/notes')[0].body).toEqual({ text: 'Ready.' });
    await vi.waitFor(() => expect((textarea as HTMLTextAreaElement).value).toBe(''));
  });

  it('shows the server text when a note fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderDetail(technician, caseAt('Thermoforming'), {
      routes: {
        'POST /cases/CA-2025-123/notes': {
          status: 400,
          body: { error: 'Note must be at most 5000 characters.' },
        },
      },
    });
    fireEvent.click(tab('Communication'));
    fireEvent.change(within(panel()).getByRole('textbox', { name: 'Add Note' }), { target: { value: 'x' } });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Add Note' }));
    expect((await within(panel()).findByRole('alert')).textContent).toBe(
      'Note must be at most 5000 characters.',
    );
  });
});
