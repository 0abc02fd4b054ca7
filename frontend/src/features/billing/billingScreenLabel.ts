import type { Role } from '@alignerflow/domain';

/** The two navigation labels; the rest of the billing texts load with the screens. */
export const BILLING_NAV_TEXTS = { billing: 'Billing', invoices: 'Invoices' } as const;

/** The navigation's entry to billing: Billing for Managers and Representatives, Invoices for Doctors. */
export function billingScreenLabel(role: Role): string | undefined {
  if (role === 'Manager' || role === 'Representative') return BILLING_NAV_TEXTS.billing;
  if (role === 'Doctor') return BILLING_NAV_TEXTS.invoices;
  return undefined;
}
