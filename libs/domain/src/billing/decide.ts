import type { Rejection, RejectionKind } from '../case/decision.js';
import type { Actor, Role } from '../permissions/roles.js';
import type { InvoiceEventData, InvoiceIssuedData } from './events.js';
import { PAYMENT_METHODS, type Invoice, type PaymentMethod } from './invoice.js';
import { BILLING_TEXTS } from './texts.js';

/** Commands on one invoice stream. Numbers and ids are given: the caller draws them in its transaction. */
export type InvoiceCommand =
  | { type: 'IssueInvoice'; invoice: InvoiceIssuedData }
  | {
      type: 'RecordPayment';
      id: string;
      amount: unknown;
      method: unknown;
      reference?: unknown;
      receivedAt: string;
    }
  | { type: 'IssueCreditNote'; number: string; amount: unknown; reason: unknown; issuedAt: string }
  | { type: 'VoidInvoice'; reason: unknown; at: string }
  | { type: 'SendReminder'; at: string }
  | { type: 'ImportInvoice'; invoice: Invoice };

export type InvoiceDecision = { ok: true; events: InvoiceEventData[] } | { ok: false; rejection: Rejection };

const accept = (...events: InvoiceEventData[]): InvoiceDecision => ({ ok: true, events });
const reject = (kind: RejectionKind, message: string): InvoiceDecision => ({
  ok: false,
  rejection: { kind, message },
});

/** Overdue this many days past the due date, with a balance left, the doctor gets one reminder. */
export const REMINDER_AFTER_DAYS = 7;
const DAY_MS = 86_400_000;

const MAY_RECORD_PAYMENTS: readonly Role[] = ['Manager', 'Representative'];
const MAY_CREDIT_AND_VOID: readonly Role[] = ['Manager'];

/** Who may read invoices at all: Managers and Representatives (all), Doctors (their own). */
export function mayReadInvoices(role: Role): boolean {
  return role === 'Manager' || role === 'Representative' || role === 'Doctor';
}

/** Whether the actor may see this invoice (a Doctor only their own; the others all). */
export function invoiceVisibleTo(invoice: Pick<Invoice, 'doctorUsername'>, actor: Actor): boolean {
  if (actor.role === 'Doctor') return invoice.doctorUsername.toLowerCase() === actor.username.toLowerCase();
  return actor.role === 'Manager' || actor.role === 'Representative';
}

/**
 * The decider of an invoice stream: the events a command makes, or why not. Order of checks:
 * who may, then the invoice's state, then the input (as the case decider does).
 */
export function decideInvoice(command: InvoiceCommand, state: Invoice | null, actor: Actor): InvoiceDecision {
  switch (command.type) {
    case 'IssueInvoice':
      // Exactly once per case: the stream holds one invoice.
      if (state) return reject('conflict', `Case ${command.invoice.caseId} is already invoiced.`);
      return accept({ type: 'InvoiceIssued', data: command.invoice });
    case 'ImportInvoice':
      return accept({ type: 'InvoiceImported', data: { invoice: command.invoice } });
    case 'SendReminder': {
      if (!state || !reminderDue(state, new Date(command.at)))
        return reject('conflict', BILLING_TEXTS.notDueForReminder);
      const { number, caseId, patientInitials, doctorUsername, balance, currency, dueAt } = state;
      return accept({
        type: 'InvoiceReminderSent',
        data: { at: command.at, number, caseId, patientInitials, doctorUsername, balance, currency, dueAt },
      });
    }
  }
  if (!state) return reject('not_found', BILLING_TEXTS.notFound);
  switch (command.type) {
    case 'RecordPayment': {
      if (!MAY_RECORD_PAYMENTS.includes(actor.role)) return reject('forbidden', BILLING_TEXTS.notAllowed);
      if (state.status === 'void') return reject('conflict', BILLING_TEXTS.alreadyVoid);
      if (!isAmountWithin(command.amount, state.balance)) return reject('invalid', BILLING_TEXTS.amountRange);
      if (!PAYMENT_METHODS.includes(command.method as PaymentMethod))
        return reject('invalid', BILLING_TEXTS.methodInvalid);
      const reference = command.reference ?? '';
      if (typeof reference !== 'string' || reference.length > 200)
        return reject('invalid', BILLING_TEXTS.referenceTooLong);
      return accept({
        type: 'PaymentRecorded',
        data: {
          id: command.id,
          amount: command.amount,
          method: command.method as PaymentMethod,
          reference: reference.trim(),
          receivedAt: command.receivedAt,
          recordedBy: actor.username,
        },
      });
    }
    case 'IssueCreditNote': {
      if (!MAY_CREDIT_AND_VOID.includes(actor.role)) return reject('forbidden', BILLING_TEXTS.managersOnly);
      if (state.status === 'void') return reject('conflict', BILLING_TEXTS.alreadyVoid);
      if (!isAmountWithin(command.amount, state.balance)) return reject('invalid', BILLING_TEXTS.amountRange);
      const reason = checkReason(command.reason);
      if (typeof reason !== 'string') return reason;
      return accept({
        type: 'CreditNoteIssued',
        data: { number: command.number, amount: command.amount, reason, issuedAt: command.issuedAt },
      });
    }
    case 'VoidInvoice': {
      if (!MAY_CREDIT_AND_VOID.includes(actor.role)) return reject('forbidden', BILLING_TEXTS.managersOnly);
      if (state.status === 'void') return reject('conflict', BILLING_TEXTS.alreadyVoid);
      if (state.payments.length || state.creditNotes.length)
        return reject('conflict', BILLING_TEXTS.voidOnlyUntouched);
      const reason = checkReason(command.reason);
      if (typeof reason !== 'string') return reason;
      return accept({ type: 'InvoiceVoided', data: { reason, at: command.at } });
    }
  }
}

/** An amount of minor units from 1 to the balance. */
function isAmountWithin(amount: unknown, balance: number): amount is number {
  return typeof amount === 'number' && Number.isInteger(amount) && amount >= 1 && amount <= balance;
}

function checkReason(value: unknown): string | InvoiceDecision {
  const reason = typeof value === 'string' ? value.trim() : '';
  if (!reason) return reject('invalid', BILLING_TEXTS.reasonRequired);
  if (reason.length > 500) return reject('invalid', BILLING_TEXTS.reasonTooLong);
  return reason;
}

/** Seven days past the due date, a balance left, not void, not yet reminded. */
export function reminderDue(invoice: Invoice, now: Date): boolean {
  return (
    invoice.status === 'open' &&
    invoice.balance > 0 &&
    invoice.remindedAt === null &&
    now.getTime() >= new Date(invoice.dueAt).getTime() + REMINDER_AFTER_DAYS * DAY_MS
  );
}
