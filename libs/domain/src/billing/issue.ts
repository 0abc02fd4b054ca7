import type { Case } from '../case/case.js';
import type { CaseEvent } from '../case/events.js';
import { STATUS_LABELS, statusIndex } from '../case/status.js';
import { patientInitials } from '../case/patient-initials.js';
import type { InvoiceIssuedData } from './events.js';
import type { BillingSettings, DoctorBillingDetails } from './invoice.js';
import { toMinorUnits } from './money.js';
import { BILLING_TEXTS } from './texts.js';

const DAY_MS = 86_400_000;

/** The case has entered Delivery to Doctor (or gone past it to Completed). */
export function hasShipped(state: Pick<Case, 'status'>): boolean {
  const delivery = statusIndex(STATUS_LABELS.Delivery);
  return statusIndex(state.status) >= delivery;
}

/** Whether the case, as it is now, is to be invoiced: shipped, priced, with a doctor, not the lab's own remake. */
export function isInvoiceable(state: Case): boolean {
  return (
    !state.deleted &&
    hasShipped(state) &&
    (state.price ?? 0) > 0 &&
    toMinorUnits(state.price ?? 0) > 0 &&
    !!state.assignedDoctorUsername &&
    !(state.origin?.kind === 'remake' && state.origin.reasonCode === 'lab_error')
  );
}

/**
 * Whether this case event is the moment of the invoice: the case entered Delivery to Doctor, or a
 * case already shipped got its doctor. `before` is the case's doctor before the event. The
 * invoice stream itself guarantees one invoice per case whatever the follower sees twice.
 */
export function triggersInvoice(event: CaseEvent, after: Case, doctorBefore: string | null): boolean {
  if (!isInvoiceable(after)) return false;
  if (event.type === 'StageAdvanced') return event.data.to === STATUS_LABELS.Delivery;
  return !doctorBefore && !!after.assignedDoctorUsername;
}

/** The invoice a shipped case gets, as of `issuedAt`: one line, the case's price, the applicable tax. */
export function draftInvoice(
  state: Case,
  number: string,
  issuedAt: string,
  settings: BillingSettings,
  details: DoctorBillingDetails | null,
): InvoiceIssuedData {
  const due = new Date(new Date(issuedAt).getTime() + settings.paymentTermsDays * DAY_MS);
  return {
    number,
    caseId: state.id,
    patientInitials: patientInitials(state.patientName),
    doctorUsername: state.assignedDoctorUsername ?? '',
    clinicName: details?.clinicName || state.clinicName,
    issuedAt,
    dueAt: due.toISOString(),
    currency: settings.currency,
    lines: [
      {
        description: BILLING_TEXTS.lineDescription(state.id),
        quantity: 1,
        unitAmount: toMinorUnits(state.price ?? 0),
        taxRate: details?.taxRate ?? settings.taxRate,
      },
    ],
  };
}

/** The year an issued number counts in (UTC). */
export function numberYear(at: string): number {
  return new Date(at).getUTCFullYear();
}

/** The case events that may give a case its doctor (the issuer looks at these and at shipping). */
export const DOCTOR_ASSIGNING_EVENTS: ReadonlySet<string> = new Set(['CaseApproved']);

/** Whether the issuer needs to look at this case event at all. */
export function mayTriggerInvoice(type: string, data: unknown): boolean {
  if (type === 'StageAdvanced') return (data as { to?: string }).to === STATUS_LABELS.Delivery;
  return DOCTOR_ASSIGNING_EVENTS.has(type);
}
