/** The billing vocabulary (api.md "Billing"): amounts are integer minor units. */

export const PAYMENT_METHODS = ['card', 'bank', 'cash', 'check', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const INVOICE_STATUSES = ['open', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface InvoiceLine {
  description: string;
  quantity: number;
  unitAmount: number;
  /** Percent, at most 2 decimals. */
  taxRate: number;
  /** quantity × unitAmount, before tax. */
  amount: number;
}

export interface Payment {
  id: string;
  amount: number;
  method: PaymentMethod;
  reference: string;
  receivedAt: string;
  recordedBy: string;
}

export interface CreditNote {
  number: string;
  amount: number;
  reason: string;
  issuedAt: string;
}

export interface Invoice {
  number: string;
  caseId: string;
  patientInitials: string;
  doctorUsername: string;
  clinicName: string;
  issuedAt: string;
  dueAt: string;
  currency: string;
  lines: InvoiceLine[];
  subtotal: number;
  tax: number;
  total: number;
  paid: number;
  credited: number;
  balance: number;
  status: InvoiceStatus;
  payments: Payment[];
  creditNotes: CreditNote[];
  /** Set by a void; the number stays. */
  voidReason: string | null;
  /** When the overdue reminder went to the doctor; null until then. */
  remindedAt: string | null;
}

export interface BillingSettings {
  labName: string;
  labAddress: string;
  labTaxId: string;
  currency: string;
  taxRate: number;
  paymentTermsDays: number;
}

export const DEFAULT_BILLING_SETTINGS: BillingSettings = {
  labName: '',
  labAddress: '',
  labTaxId: '',
  currency: 'USD',
  taxRate: 0,
  paymentTermsDays: 30,
};

export interface DoctorBillingDetails {
  clinicName: string;
  address: string;
  taxId: string;
  email: string;
  /** Overrides the lab's rate for this doctor (an exempt clinic: 0); null: the lab's. */
  taxRate: number | null;
}

export const INVOICE_PREFIX = 'INV';
export const CREDIT_NOTE_PREFIX = 'CN';
export type NumberKind = typeof INVOICE_PREFIX | typeof CREDIT_NOTE_PREFIX;

/** INV-2026-00001: consecutive per year and kind. */
export function documentNumber(kind: NumberKind, year: number, sequence: number): string {
  return `${kind}-${year}-${String(sequence).padStart(5, '0')}`;
}

export function invoiceStreamId(caseId: string): string {
  return `invoice-${caseId}`;
}

export const INVOICE_STREAM_PREFIX = 'invoice-';
export const BILLING_SETTINGS_STREAM = 'billing-settings';
export function doctorBillingStreamId(username: string): string {
  return `billing-doctor-${username.toLowerCase()}`;
}
