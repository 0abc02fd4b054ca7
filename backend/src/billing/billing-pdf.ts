import {
  formatMoney,
  taxOf,
  type BillingSettings,
  type DoctorBillingDetails,
  type Invoice,
  type Statement,
} from '@alignerflow/domain';
import { OnePagePdf, type PageSize } from '../pdf/one-page-pdf.js';

const KIND_LABELS = { invoice: 'Invoice', payment: 'Payment', credit_note: 'Credit note' } as const;

function lab(settings: BillingSettings): string[] {
  return [
    settings.labName || 'Dental laboratory',
    settings.labAddress,
    settings.labTaxId && `Tax ID: ${settings.labTaxId}`,
  ];
}

function clinic(name: string, doctor: string, details: DoctorBillingDetails | null): string[] {
  return [
    'Bill to:',
    name,
    `Doctor: ${doctor}`,
    details?.address ?? '',
    details?.taxId ? `Tax ID: ${details.taxId}` : '',
    details?.email ?? '',
  ];
}

/** The invoice on one A4 or Letter page: lab, clinic, number, dates, lines, totals, balance. */
export async function invoicePdf(
  invoice: Invoice,
  settings: BillingSettings,
  details: DoctorBillingDetails | null,
  size: PageSize,
): Promise<Buffer> {
  const money = (minor: number) => formatMoney(minor, invoice.currency);
  const pdf = new OnePagePdf(size, `Invoice ${invoice.number}`);
  pdf.text(`Invoice ${invoice.number}`, { size: 18, bold: true });
  if (invoice.status === 'void') pdf.text(`VOID: ${invoice.voidReason ?? ''}`, { bold: true });
  pdf
    .gap()
    .columns(lab(settings), clinic(invoice.clinicName, invoice.doctorUsername, details))
    .gap();
  pdf.text(`Issued: ${invoice.issuedAt.slice(0, 10)}    Due: ${invoice.dueAt.slice(0, 10)}`);
  pdf.text(`Case: ${invoice.caseId}    Patient: ${invoice.patientInitials}`).gap(12);
  const totals: [string, string][] = [
    ['Subtotal', money(invoice.subtotal)],
    ['Tax', money(invoice.tax)],
    ['Total', money(invoice.total)],
    ['Paid', money(invoice.paid)],
    ['Credited', money(invoice.credited)],
    ['Balance due', money(invoice.balance)],
  ];
  pdf.table(
    [
      { width: 0.4 },
      { width: 0.07, align: 'right' },
      { width: 0.16, align: 'right' },
      { width: 0.17, align: 'right' },
      { width: 0.2, align: 'right' },
    ],
    ['Description', 'Qty', 'Unit price', 'Tax', 'Amount'],
    invoice.lines.map((line) => [
      line.description,
      String(line.quantity),
      money(line.unitAmount),
      `${line.taxRate}% ${money(taxOf(line.amount, line.taxRate))}`,
      money(line.amount),
    ]),
    totals.length * 14 + 80,
  );
  pdf.gap(10).table(
    [
      { width: 0.7, align: 'right' },
      { width: 0.3, align: 'right' },
    ],
    ['', ''],
    totals,
  );
  if (invoice.creditNotes.length)
    pdf
      .gap()
      .text(
        `Credit notes: ${invoice.creditNotes.map((note) => `${note.number} ${money(note.amount)}`).join(', ')}`,
        { size: 9 },
      );
  return pdf.finish();
}

/** A doctor's monthly statement on one page: opening, each entry with its running balance, closing. */
export async function statementPdf(
  statement: Statement,
  settings: BillingSettings,
  clinicName: string,
  details: DoctorBillingDetails | null,
  size: PageSize,
): Promise<Buffer> {
  const money = (minor: number) => formatMoney(minor, statement.currency);
  const pdf = new OnePagePdf(size, `Statement ${statement.doctor} ${statement.month}`);
  pdf.text(`Statement ${statement.month}`, { size: 18, bold: true });
  pdf
    .gap()
    .columns(lab(settings), clinic(clinicName, statement.doctor, details))
    .gap(12);
  pdf.text(`Opening balance: ${money(statement.opening)}`);
  pdf.gap(6).table(
    [
      { width: 0.18 },
      { width: 0.18 },
      { width: 0.24 },
      { width: 0.2, align: 'right' },
      { width: 0.2, align: 'right' },
    ],
    ['Date', 'Kind', 'Number', 'Amount', 'Balance'],
    statement.entries.map((entry) => [
      entry.date,
      KIND_LABELS[entry.kind],
      entry.number,
      money(entry.kind === 'invoice' ? entry.amount : -entry.amount),
      money(entry.balance),
    ]),
    110,
  );
  pdf.gap(10);
  pdf.text(
    `Invoiced: ${money(statement.invoiced)}    Paid: ${money(statement.paid)}    Credited: ${money(statement.credited)}`,
  );
  pdf.text(`Closing balance: ${money(statement.closing)}`, { bold: true });
  return pdf.finish();
}
