import type { Invoice, PaymentMethod } from './invoice.js';

/** What an issued line says; its amount and tax follow from it (evolve). */
export interface IssuedLine {
  description: string;
  quantity: number;
  unitAmount: number;
  taxRate: number;
}

export interface InvoiceIssuedData {
  number: string;
  caseId: string;
  patientInitials: string;
  doctorUsername: string;
  clinicName: string;
  issuedAt: string;
  dueAt: string;
  currency: string;
  lines: IssuedLine[];
}

/** Every fact of an invoice's life, in the stream invoice-{caseId}. */
export type InvoiceEventData =
  | { type: 'InvoiceIssued'; data: InvoiceIssuedData }
  | {
      type: 'PaymentRecorded';
      data: {
        id: string;
        amount: number;
        method: PaymentMethod;
        reference: string;
        receivedAt: string;
        recordedBy: string;
      };
    }
  | { type: 'CreditNoteIssued'; data: { number: string; amount: number; reason: string; issuedAt: string } }
  | { type: 'InvoiceVoided'; data: { reason: string; at: string } }
  /** The overdue reminder; it carries what the doctor's message says. */
  | { type: 'InvoiceReminderSent'; data: InvoiceReminderData }
  /** An invoice brought in whole by a restore, its number kept. */
  | { type: 'InvoiceImported'; data: { invoice: Invoice } };

export interface InvoiceReminderData {
  at: string;
  number: string;
  caseId: string;
  /** The patient as the message may name them outside the lab; absent in reminders sent before. */
  patientInitials?: string;
  doctorUsername: string;
  balance: number;
  currency: string;
  dueAt: string;
}

export type InvoiceEventType = InvoiceEventData['type'];

export const INVOICE_EVENT_TYPES: readonly InvoiceEventType[] = [
  'InvoiceIssued',
  'PaymentRecorded',
  'CreditNoteIssued',
  'InvoiceVoided',
  'InvoiceReminderSent',
  'InvoiceImported',
];

/** The lab's billing settings and a doctor's billing details are events too (backup, replay). */
export type BillingSettingsEventData =
  | { type: 'BillingSettingsChanged'; data: import('./invoice.js').BillingSettings }
  | { type: 'DoctorBillingDetailsChanged'; data: import('./invoice.js').DoctorBillingDetails };
