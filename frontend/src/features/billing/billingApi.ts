import type {
  AgingReport,
  BillingSettings,
  BillingSettingsBody,
  CreditNoteAnswer,
  CreditNoteBody,
  Invoice,
  RecordPaymentBody,
  Statement,
  VoidInvoiceBody,
} from '@alignerflow/domain';
import { API_BASE, ApiError, request } from '../../api/client';

const enc = encodeURIComponent;

export interface InvoiceQuery {
  doctor?: string;
  status?: string;
  from?: string;
  to?: string;
  caseId?: string;
}

function query(params: object): string {
  const pairs = Object.entries(params).filter(([, value]) => typeof value === 'string' && value !== '');
  return pairs.length ? `?${pairs.map(([key, value]) => `${key}=${enc(value as string)}`).join('&')}` : '';
}

/** api.md "Billing", as the screens call it. */
export const billingApi = {
  invoices: (filter: InvoiceQuery = {}) => request<Invoice[]>('GET', `/invoices${query(filter)}`),
  recordPayment: (number: string, body: RecordPaymentBody) =>
    request<Invoice>('POST', `/invoices/${enc(number)}/payments`, { body }),
  creditNote: (number: string, body: CreditNoteBody) =>
    request<CreditNoteAnswer>('POST', `/invoices/${enc(number)}/credit-notes`, { body }),
  voidInvoice: (number: string, body: VoidInvoiceBody) =>
    request<Invoice>('POST', `/invoices/${enc(number)}/void`, { body }),
  aging: () => request<AgingReport>('GET', '/billing/aging'),
  settings: () => request<BillingSettings>('GET', '/billing/settings'),
  saveSettings: (body: BillingSettingsBody) => request<BillingSettings>('PUT', '/billing/settings', { body }),
  statement: (doctor: string, month: string) =>
    request<Statement>('GET', `/billing/statements/${enc(doctor)}${query({ month })}`),
};

/** Downloads are plain links: the session cookie authenticates them. */
export const billingLinks = {
  invoicePdf: (number: string) => `${API_BASE}/invoices/${enc(number)}.pdf`,
  statementPdf: (doctor: string, month: string) =>
    `${API_BASE}/billing/statements/${enc(doctor)}.pdf${query({ month })}`,
  export: (format: 'quickbooks' | 'xero', from: string, to: string) =>
    `${API_BASE}/billing/export.csv${query({ format, from, to })}`,
};

/** The server's `{error}` text, else the error's message. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body && 'error' in error.body)
    return String((error.body as { error: unknown }).error);
  return error instanceof Error ? error.message : String(error);
}
