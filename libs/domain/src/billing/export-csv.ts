import { toCsv } from '../reports/reports.js';
import { taxOf, toMajorText } from './money.js';
import type { Invoice } from './invoice.js';

export const EXPORT_FORMATS = ['quickbooks', 'xero'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** QuickBooks Online's invoice import columns. */
export const QUICKBOOKS_HEADER = [
  'InvoiceNo',
  'Customer',
  'InvoiceDate',
  'DueDate',
  'Item(Product/Service)',
  'ItemDescription',
  'ItemQuantity',
  'ItemRate',
  'ItemAmount',
  'ItemTaxAmount',
] as const;

/** Xero's sales invoice import columns. */
export const XERO_HEADER = [
  'ContactName',
  'InvoiceNumber',
  'InvoiceDate',
  'DueDate',
  'Description',
  'Quantity',
  'UnitAmount',
  'AccountCode',
  'TaxType',
  'Currency',
] as const;

/** The product line both tools book aligner cases under; Xero's default sales account. */
const ITEM_NAME = 'Clear Aligners';
const XERO_SALES_ACCOUNT = '200';

/** One row per invoice line, voided invoices left out; formula-safe cells (the reports' toCsv). */
export function invoicesCsv(invoices: Invoice[], format: ExportFormat): string {
  const kept = invoices.filter((invoice) => invoice.status !== 'void');
  if (format === 'quickbooks') {
    return toCsv(
      QUICKBOOKS_HEADER,
      kept.flatMap((invoice) =>
        invoice.lines.map((line) => [
          invoice.number,
          invoice.clinicName,
          invoice.issuedAt.slice(0, 10),
          invoice.dueAt.slice(0, 10),
          ITEM_NAME,
          line.description,
          line.quantity,
          toMajorText(line.unitAmount),
          toMajorText(line.amount),
          toMajorText(taxOf(line.amount, line.taxRate)),
        ]),
      ),
    );
  }
  return toCsv(
    XERO_HEADER,
    kept.flatMap((invoice) =>
      invoice.lines.map((line) => [
        invoice.clinicName,
        invoice.number,
        invoice.issuedAt.slice(0, 10),
        invoice.dueAt.slice(0, 10),
        line.description,
        line.quantity,
        toMajorText(line.unitAmount),
        XERO_SALES_ACCOUNT,
        line.taxRate > 0 ? 'Tax on Sales' : 'Tax Exempt',
        invoice.currency,
      ]),
    ),
  );
}
