import type { Invoice } from './invoice.js';

export type StatementEntryKind = 'invoice' | 'payment' | 'credit_note';

export interface StatementEntry {
  date: string;
  kind: StatementEntryKind;
  number: string;
  amount: number;
  /** The running balance after this entry. */
  balance: number;
}

export interface Statement {
  doctor: string;
  month: string;
  currency: string;
  opening: number;
  invoiced: number;
  paid: number;
  credited: number;
  closing: number;
  entries: StatementEntry[];
}

/** YYYY-MM of a real month. */
export function isMonth(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) return false;
  return Number(value.slice(0, 4)) >= 1970;
}

interface Movement {
  date: string;
  kind: StatementEntryKind;
  number: string;
  /** Signed: what it adds to the doctor's balance. */
  delta: number;
  order: number;
}

/**
 * A doctor's month: the balance at its start, then each invoice (its total), payment and credit
 * note of the month, oldest first; voided invoices count for nothing.
 */
export function statementOf(invoices: Invoice[], doctor: string, month: string, currency: string): Statement {
  const movements: Movement[] = [];
  for (const invoice of invoices) {
    if (invoice.status === 'void') continue;
    movements.push({
      date: day(invoice.issuedAt),
      kind: 'invoice',
      number: invoice.number,
      delta: invoice.total,
      order: 0,
    });
    for (const payment of invoice.payments)
      movements.push({
        date: day(payment.receivedAt),
        kind: 'payment',
        number: invoice.number,
        delta: -payment.amount,
        order: 1,
      });
    for (const note of invoice.creditNotes)
      movements.push({
        date: day(note.issuedAt),
        kind: 'credit_note',
        number: note.number,
        delta: -note.amount,
        order: 2,
      });
  }
  movements.sort(
    (a, b) => a.date.localeCompare(b.date) || a.order - b.order || a.number.localeCompare(b.number),
  );
  let opening = 0;
  let invoiced = 0;
  let paid = 0;
  let credited = 0;
  const entries: StatementEntry[] = [];
  for (const movement of movements) {
    const inMonth = movement.date.slice(0, 7);
    if (inMonth < month) opening += movement.delta;
    if (inMonth !== month) continue;
    if (movement.kind === 'invoice') invoiced += movement.delta;
    else if (movement.kind === 'payment') paid -= movement.delta;
    else credited -= movement.delta;
    entries.push({
      date: movement.date,
      kind: movement.kind,
      number: movement.number,
      amount: Math.abs(movement.delta),
      balance: opening + invoiced - paid - credited,
    });
  }
  return {
    doctor,
    month,
    currency,
    opening,
    invoiced,
    paid,
    credited,
    closing: opening + invoiced - paid - credited,
    entries,
  };
}

function day(at: string): string {
  return at.slice(0, 10);
}

/** A real calendar day as YYYY-MM-DD (not 2026-02-31). */
export function isDay(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number);
  const at = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && at.toISOString().slice(0, 10) === value;
}
