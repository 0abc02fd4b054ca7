import type { InvoiceEventData } from './events.js';
import type { Invoice, InvoiceLine } from './invoice.js';
import { taxOf } from './money.js';

/** The derived figures of an invoice: always recomputed from its lines, payments and credits. */
export function withTotals(
  invoice: Omit<Invoice, 'subtotal' | 'tax' | 'total' | 'paid' | 'credited' | 'balance' | 'status'> & {
    status?: Invoice['status'];
  },
): Invoice {
  const subtotal = sum(invoice.lines.map((line) => line.amount));
  const tax = sum(invoice.lines.map((line) => taxOf(line.amount, line.taxRate)));
  const total = subtotal + tax;
  const paid = sum(invoice.payments.map((payment) => payment.amount));
  const credited = sum(invoice.creditNotes.map((note) => note.amount));
  const balance = total - paid - credited;
  const status = invoice.voidReason !== null ? 'void' : balance === 0 ? 'paid' : 'open';
  return { ...invoice, subtotal, tax, total, paid, credited, balance, status };
}

/** Folds one event into the invoice (pure; the state is never changed in place). */
export function evolveInvoice(state: Invoice | null, event: InvoiceEventData): Invoice {
  if (event.type === 'InvoiceIssued') {
    const lines: InvoiceLine[] = event.data.lines.map((line) => ({
      ...line,
      amount: line.quantity * line.unitAmount,
    }));
    return withTotals({
      ...event.data,
      lines,
      payments: [],
      creditNotes: [],
      voidReason: null,
      remindedAt: null,
    });
  }
  if (event.type === 'InvoiceImported') return withTotals({ ...event.data.invoice });
  if (!state) throw new Error(`${event.type} cannot start an invoice stream`);
  switch (event.type) {
    case 'PaymentRecorded':
      return withTotals({ ...state, payments: [...state.payments, { ...event.data }] });
    case 'CreditNoteIssued':
      return withTotals({ ...state, creditNotes: [...state.creditNotes, { ...event.data }] });
    case 'InvoiceVoided':
      return withTotals({ ...state, voidReason: event.data.reason });
    case 'InvoiceReminderSent':
      return { ...state, remindedAt: event.data.at };
  }
}

export function foldInvoice(events: InvoiceEventData[]): Invoice | null {
  return events.reduce<Invoice | null>((state, event) => evolveInvoice(state, event), null);
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
