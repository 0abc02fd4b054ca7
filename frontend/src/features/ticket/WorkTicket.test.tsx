import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { CASE_STATUSES, QR_OPTIONS, type Case } from '@alignerflow/domain';
import { makeCase } from '../../test/fixtures';
import { PrintTicketButton } from './PrintTicketButton';
import { WorkTicket } from './WorkTicket';

// The lazily loaded qrcode library is the boundary: jsdom has no canvas to draw on.
const toDataURL = vi.hoisted(() => vi.fn(async (text: string) => `data:image/png;base64,${btoa(text)}`));
vi.mock('qrcode', () => ({ default: { toDataURL }, toDataURL }));

const note = (n: number) => ({
  id: `note-${n}`,
  author: n % 2 ? 'tech' : 'admin',
  role: n % 2 ? 'Technician' : 'Manager',
  text: `Note number ${n}`,
  timestamp: `2025-01-0${n}T10:00:00.000Z`,
});

const item: Case = makeCase({
  id: 'CA-2025-321',
  patientName: 'Nora Print',
  doctorName: 'Dr. Lee',
  clinicName: 'Smile Clinic',
  status: 'Thermoforming',
  priority: 'High',
  deliveryDate: '2099-03-04',
  upperSheets: 18,
  lowerSheets: 16,
  alignerWorkflow: CASE_STATUSES.map((name, index) => ({
    name,
    completed: index < CASE_STATUSES.indexOf('Thermoforming'),
    date: null,
    assignedTo: name === 'Thermoforming' ? 'tech' : 'Tech Team',
  })),
  notes: [1, 2, 3, 4, 5].map(note),
});

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
    render(
      <WorkTicket
        item={{ ...item, upperSheets: null, lowerSheets: null, notes: [] }}
        qrDataUrl="data:image/png;base64,AA=="
      />,
    );
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
