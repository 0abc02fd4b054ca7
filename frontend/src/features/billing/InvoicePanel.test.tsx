import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import {
  evolveInvoice,
  foldInvoice,
  type Invoice,
  type InvoiceEventData,
  type Role,
} from '@alignerflow/domain';
import { fakeServer } from '../../test/fakeServer';
import { minorUnitsOf } from './AmountField';
import { InvoicePanel } from './InvoicePanel';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';

// An invoice is only ever said as its events, as the server folds them.
const issued: InvoiceEventData = {
  type: 'InvoiceIssued',
  data: {
    number: 'INV-2026-00004',
    caseId: 'CA-2026-123',
    patientInitials: 'J.D.',
    doctorUsername: 'dr.lee',
    clinicName: 'Smile Clinic',
    issuedAt: '2026-03-02T10:00:00.000Z',
    dueAt: '2026-04-01T10:00:00.000Z',
    currency: 'USD',
    lines: [{ description: 'Aligners', quantity: 1, unitAmount: 110050, taxRate: 10 }],
  },
};
const open = foldInvoice([issued]) as Invoice;
const paid = (amount: number): InvoiceEventData => ({
  type: 'PaymentRecorded',
  data: { id: 'p1', amount, method: 'bank', reference: 'TX-1', receivedAt: '2026-03-05', recordedBy: 'rep' },
});

function renderPanel(role: Role, invoice: Invoice = open) {
  const changes: Invoice[] = [];
  render(
    <InvoicePanel
      invoice={invoice}
      role={role}
      onChanged={(next) => changes.push(next)}
      onClose={() => undefined}
    />,
  );
  return changes;
}
const button = (name: string) => screen.queryByRole('button', { name });

describe('InvoicePanel', () => {
  it('shows the lines and totals in the invoice currency', () => {
    renderPanel('Manager');
    expect(screen.getByTestId('invoice-total').textContent).toBe('$1,210.55');
    expect(screen.getByTestId('invoice-balance').textContent).toBe('$1,210.55');
  });

  it.each<[Role, string[], string[]]>([
    ['Manager', ['Record payment', 'Credit note', 'Void'], []],
    ['Representative', ['Record payment'], ['Credit note', 'Void']],
  ])('offers a %s what the API lets them do', (role, shown, hidden) => {
    renderPanel(role);
    for (const name of shown) expect(button(name)).toBeTruthy();
    for (const name of hidden) expect(button(name)).toBeNull();
  });

  it('offers no void once paid in part, and nothing but the PDF once paid', () => {
    const { unmount } = render(
      <InvoicePanel
        invoice={evolveInvoice(open, paid(10000))}
        role="Manager"
        onChanged={() => undefined}
        onClose={() => undefined}
      />,
    );
    expect(button('Void')).toBeNull();
    expect(button('Record payment')).toBeTruthy();
    unmount();
    renderPanel('Manager', evolveInvoice(open, paid(121055)));
    for (const name of ['Record payment', 'Credit note', 'Void']) expect(button(name)).toBeNull();
    expect(screen.getByRole('link', { name: 'PDF' })).toBeTruthy();
  });

  it('records a payment in minor units and shows the server’s answer; a refusal stays in the dialog', async () => {
    const after = evolveInvoice(open, paid(121055));
    let calls = 0;
    const server = fakeServer({
      'POST /invoices/INV-2026-00004/payments': () =>
        ++calls === 1
          ? { status: 400, body: { error: 'The amount must be between 0.01 and the balance.' } }
          : { body: after },
    });
    const changes = renderPanel('Representative');
    fireEvent.click(button('Record payment')!);
    const amount = screen.getByLabelText('Amount (USD)') as HTMLInputElement;
    expect(amount.value).toBe('1210.55');
    fireEvent.change(amount, { target: { value: '9999' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Record payment' }).at(-1)!);
    const refusal = await screen.findByText('The amount must be between 0.01 and the balance.');
    expect(refusal.getAttribute('role')).toBe('alert');
    fireEvent.change(amount, { target: { value: '1210.55' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Record payment' }).at(-1)!);
    await waitFor(() => expect(changes).toEqual([after]));
    expect(server.requests.at(-1)?.body).toMatchObject({ amount: 121055, method: 'bank' });
  });
});

describe('minorUnitsOf', () => {
  it.each([
    ['1100.5', 110050],
    ['1,100.50', 110050],
    ['0.07', 7],
    ['12', 1200],
    ['1.005', Number.NaN],
    ['abc', Number.NaN],
  ])('%s → %s', (text, minor) => {
    expect(minorUnitsOf(text)).toBe(minor);
  });
});

describe('InvoiceStatusBadge', () => {
  it('says Overdue for an open invoice past its due day, Open before, Paid whatever the day', () => {
    const { rerender } = render(
      <InvoiceStatusBadge invoice={open} now={new Date('2026-04-01T23:00:00.000Z')} />,
    );
    expect(screen.getByText('Open')).toBeTruthy();
    rerender(<InvoiceStatusBadge invoice={open} now={new Date('2026-04-02T00:00:00.000Z')} />);
    expect(screen.getByText('Overdue')).toBeTruthy();
    rerender(<InvoiceStatusBadge invoice={evolveInvoice(open, paid(121055))} now={new Date('2027-01-01')} />);
    expect(screen.getByText('Paid')).toBeTruthy();
  });
});
