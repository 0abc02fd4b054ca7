import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { CASE_STATUSES, QR_OPTIONS, type Case } from '@alignerflow/domain';
import { E, makeCase, manager, restoredCase, technician, type Given } from '../../test/fixtures';
import { PrintTicketButton } from './PrintTicketButton';
import { WorkTicket } from './WorkTicket';

// The lazily loaded qrcode library is the boundary: jsdom has no canvas to draw on.
const toDataURL = vi.hoisted(() => vi.fn(async (text: string) => `data:image/png;base64,${btoa(text)}`));
vi.mock('qrcode', () => ({ default: { toDataURL }, toDataURL }));

const nora = {
  id: 'CA-2025-321',
  patientName: 'Nora Print',
  doctorName: 'Dr. Lee',
  clinicName: 'Smile Clinic',
  priority: 'High',
  deliveryDate: '2099-03-04',
} as const;

/** At Thermoforming, taken by tech, with five notes after the workflow's own. */
const item: Case = makeCase(
  { ...nora, status: 'Thermoforming', upperSheets: 18, lowerSheets: 16 },
  E.assignee('Thermoforming', 'tech'),
  ...[1, 2, 3, 4, 5].map((n): Given => [E.note(`Note number ${n}`), n % 2 ? technician : manager]),
);

describe('WorkTicket', () => {
  it('holds the case facts, the eleven stages with the current one marked, and the last three notes', () => {
    render(<WorkTicket item={item} qrDataUrl="data:image/png;base64,AA==" />);
    const ticket = screen.getByRole('article', { name: 'Work Ticket' });
    const facts = Object.fromEntries(
      [...ticket.querySelectorAll('.work-ticket__facts > div')].map((row) => [
        row.querySelector('dt')!.textContent,
        row.querySelector('dd')!.textContent,
      ]),
    );
    expect(facts).toMatchObject({
      'Case ID': 'CA-2025-321',
      Patient: 'Nora Print',
      Doctor: 'Dr. Lee',
      Clinic: 'Smile Clinic',
      Priority: 'High',
      Sheets: 'Upper 18 · Lower 16',
    });
    expect(facts['Due date']).toContain('2099');
    expect(within(ticket).getByRole('img', { name: 'QR code of case CA-2025-321' })).toBeTruthy();

    const rows = [...ticket.querySelectorAll('tbody tr')] as HTMLTableRowElement[];
    expect(rows.map((row) => row.dataset.stage)).toEqual(CASE_STATUSES);
    expect(rows).toHaveLength(11);
    const current = rows.filter((row) => row.classList.contains('is-current'));
    expect(current.map((row) => row.dataset.stage)).toEqual(['Thermoforming']);
    expect(current[0].textContent).toContain('current');
    expect(current[0].cells[2].textContent).toBe('tech');
    const ticked = rows.filter((row) => row.querySelector('.work-ticket__box.is-done'));
    expect(ticked.map((row) => row.dataset.stage)).toEqual(CASE_STATUSES.slice(0, 5));

    const notes = [...ticket.querySelectorAll('.work-ticket__note-text')].map((text) => text.textContent);
    expect(notes).toEqual(['Note number 5', 'Note number 4', 'Note number 3']);
  });

  it('says N/A for missing sheets and "No notes." without notes', () => {
    // Every case made here has notes from its creation on; one restored from an older portal's
    // backup may have neither notes nor sheet counts.
    const restored = restoredCase({ ...nora, status: 'Thermoforming' });
    render(<WorkTicket item={restored} qrDataUrl="data:image/png;base64,AA==" />);
    expect(screen.getByText('Upper N/A · Lower N/A')).toBeTruthy();
    expect(screen.getByText('No notes.')).toBeTruthy();
  });
});

describe('PrintTicketButton', () => {
  it('draws the case QR as the QR dialog does, prints once it is drawn, and clears the sheet after', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    render(<PrintTicketButton item={item} />);
    expect(document.querySelector('.print-sheet')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Print ticket' }));

    const sheet = await vi.waitFor(() => {
      const found = document.querySelector('.print-sheet');
      if (!found) throw new Error('no print sheet yet');
      return found as HTMLElement;
    });
    expect(toDataURL).toHaveBeenCalledWith('CA-2025-321', expect.objectContaining(QR_OPTIONS));
    expect(sheet.parentElement).toBe(document.body);
    expect(within(sheet).getByText('Nora Print', { selector: '.work-ticket__patient' })).toBeTruthy();
    expect(print).not.toHaveBeenCalled();

    fireEvent.load(sheet.querySelector('img')!);
    expect(print).toHaveBeenCalledTimes(1);

    act(() => {
      window.dispatchEvent(new Event('afterprint'));
    });
    expect(document.querySelector('.print-sheet')).toBeNull();
    expect(screen.getByRole('button', { name: 'Print ticket' })).toBeTruthy();
  });
});
