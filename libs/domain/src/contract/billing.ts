/** api.md "Billing": the bodies both sides send; the answers are the domain's own shapes. */
import type { Invoice, PaymentMethod } from '../billing/invoice.js';

/** POST /invoices/{number}/payments; `amount` in minor units. */
export interface RecordPaymentBody {
  amount: number;
  method: PaymentMethod;
  reference?: string;
  /** YYYY-MM-DD or an ISO timestamp; default now. */
  receivedAt?: string;
}

/** POST /invoices/{number}/credit-notes; `amount` in minor units. */
export interface CreditNoteBody {
  amount: number;
  reason: string;
}

/** POST /invoices/{number}/void */
export interface VoidInvoiceBody {
  reason: string;
}

/** PUT /billing/settings */
export interface BillingSettingsBody {
  labName: string;
  labAddress: string;
  labTaxId: string;
  currency: string;
  taxRate: number;
  paymentTermsDays: number;
}

/** PUT /users/{username}/billing */
export interface DoctorBillingBody {
  clinicName: string;
  address: string;
  taxId: string;
  email: string;
  taxRate?: number | null;
}

/** The 201 of POST /invoices/{number}/credit-notes: the credit note and the invoice after it. */
export interface CreditNoteAnswer {
  number: string;
  amount: number;
  reason: string;
  issuedAt: string;
  invoice: Invoice;
}
