import { withTotals } from './evolve.js';
import {
  PAYMENT_METHODS,
  type BillingSettings,
  type CreditNote,
  type Invoice,
  type InvoiceLine,
  type Payment,
} from './invoice.js';
import { checkBillingSettings } from './settings.js';

/** The billing part of a backup file: every invoice whole, and the lab's settings. */
export interface BackupBilling {
  invoices: Invoice[];
  settings: BillingSettings | null;
}

const NUMBER = /^(INV|CN)-\d{4}-\d{5,}$/;
const isText = (value: unknown): value is string => typeof value === 'string';
const isWhole = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isTime = (value: unknown): value is string => isText(value) && !Number.isNaN(Date.parse(value));
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * The `billing` of a backup body, checked; a backup made before billing has none (empty). The
 * figures are recomputed from the lines, payments and credits, never taken from the file.
 */
export function checkBackupBilling(body: unknown): { value: BackupBilling } | { error: string } {
  const billing = isObject(body) ? body.billing : undefined;
  if (billing === undefined) return { value: { invoices: [], settings: null } };
  if (!isObject(billing) || !Array.isArray(billing.invoices))
    return { error: 'Invalid billing in the backup.' };
  const invoices: Invoice[] = [];
  const numbers = new Set<string>();
  for (const [index, raw] of billing.invoices.entries()) {
    const invoice = checkInvoice(raw);
    if (!invoice || numbers.has(invoice.number)) return { error: `Invalid invoice at index ${index}.` };
    numbers.add(invoice.number);
    invoices.push(invoice);
  }
  let settings: BillingSettings | null = null;
  if (billing.settings !== undefined && billing.settings !== null) {
    const checked = checkBillingSettings(billing.settings);
    if ('error' in checked) return { error: checked.error };
    settings = checked.value;
  }
  return { value: { invoices, settings } };
}

function checkInvoice(raw: unknown): Invoice | undefined {
  if (!isObject(raw)) return undefined;
  const { number, caseId, patientInitials, doctorUsername, clinicName, issuedAt, dueAt, currency } = raw;
  if (!isText(number) || !NUMBER.test(number) || !number.startsWith('INV')) return undefined;
  if (![caseId, patientInitials, doctorUsername, clinicName, currency].every(isText)) return undefined;
  if (!isTime(issuedAt) || !isTime(dueAt)) return undefined;
  if (!Array.isArray(raw.lines) || !Array.isArray(raw.payments) || !Array.isArray(raw.creditNotes))
    return undefined;
  const lines: InvoiceLine[] = [];
  for (const line of raw.lines) {
    if (!isObject(line) || !isText(line.description) || !isWhole(line.quantity) || !isWhole(line.unitAmount))
      return undefined;
    if (typeof line.taxRate !== 'number' || line.taxRate < 0 || line.taxRate > 100) return undefined;
    lines.push({
      description: line.description,
      quantity: line.quantity,
      unitAmount: line.unitAmount,
      taxRate: line.taxRate,
      amount: line.quantity * line.unitAmount,
    });
  }
  const payments: Payment[] = [];
  for (const payment of raw.payments) {
    if (!isObject(payment) || !isText(payment.id) || !isWhole(payment.amount) || !isTime(payment.receivedAt))
      return undefined;
    if (!PAYMENT_METHODS.includes(payment.method as Payment['method'])) return undefined;
    payments.push({
      id: payment.id,
      amount: payment.amount,
      method: payment.method as Payment['method'],
      reference: isText(payment.reference) ? payment.reference : '',
      receivedAt: payment.receivedAt,
      recordedBy: isText(payment.recordedBy) ? payment.recordedBy : '',
    });
  }
  const creditNotes: CreditNote[] = [];
  for (const note of raw.creditNotes) {
    if (!isObject(note) || !isText(note.number) || !NUMBER.test(note.number) || !isWhole(note.amount))
      return undefined;
    if (!isText(note.reason) || !isTime(note.issuedAt)) return undefined;
    creditNotes.push({
      number: note.number,
      amount: note.amount,
      reason: note.reason,
      issuedAt: note.issuedAt,
    });
  }
  const invoice = withTotals({
    number,
    caseId: caseId as string,
    patientInitials: patientInitials as string,
    doctorUsername: doctorUsername as string,
    clinicName: clinicName as string,
    issuedAt,
    dueAt,
    currency: currency as string,
    lines,
    payments,
    creditNotes,
    voidReason: isText(raw.voidReason) ? raw.voidReason : null,
    remindedAt: isTime(raw.remindedAt) ? raw.remindedAt : null,
  });
  return invoice.balance < 0 ? undefined : invoice;
}

/** Whether two invoices say the same (whatever order their keys come in, as jsonb reorders them). */
export function sameInvoice(a: Invoice, b: Invoice): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
