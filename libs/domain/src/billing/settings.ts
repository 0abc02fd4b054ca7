import type { BillingSettings, DoctorBillingDetails } from './invoice.js';
import { isTaxRate } from './money.js';
import { BILLING_TEXTS } from './texts.js';

type Checked<T> = { value: T } | { error: string };

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.trim().length <= max ? value.trim() : undefined;

/** PUT /billing/settings: every field, checked; the first wrong one named. */
export function checkBillingSettings(body: unknown): Checked<BillingSettings> {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const labName = text(input.labName ?? '', 200);
  if (labName === undefined) return { error: BILLING_TEXTS.settingsInvalid('labName') };
  const labAddress = text(input.labAddress ?? '', 500);
  if (labAddress === undefined) return { error: BILLING_TEXTS.settingsInvalid('labAddress') };
  const labTaxId = text(input.labTaxId ?? '', 100);
  if (labTaxId === undefined) return { error: BILLING_TEXTS.settingsInvalid('labTaxId') };
  const currency = input.currency ?? 'USD';
  if (typeof currency !== 'string' || !isCurrency(currency)) return { error: BILLING_TEXTS.currencyInvalid };
  const taxRate = input.taxRate ?? 0;
  if (!isTaxRate(taxRate)) return { error: BILLING_TEXTS.taxRateInvalid };
  const paymentTermsDays = input.paymentTermsDays ?? 30;
  if (
    typeof paymentTermsDays !== 'number' ||
    !Number.isInteger(paymentTermsDays) ||
    paymentTermsDays < 0 ||
    paymentTermsDays > 365
  )
    return { error: BILLING_TEXTS.paymentTermsInvalid };
  return {
    value: { labName, labAddress, labTaxId, currency: currency.toUpperCase(), taxRate, paymentTermsDays },
  };
}

/** PUT /users/{username}/billing. */
export function checkDoctorBillingDetails(body: unknown): Checked<DoctorBillingDetails> {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const fields = { clinicName: 200, address: 500, taxId: 100, email: 254 } as const;
  const value: Partial<DoctorBillingDetails> = {};
  for (const [field, max] of Object.entries(fields) as [keyof typeof fields, number][]) {
    const checked = text(input[field] ?? '', max);
    if (checked === undefined) return { error: BILLING_TEXTS.settingsInvalid(field) };
    value[field] = checked;
  }
  const taxRate = input.taxRate ?? null;
  if (taxRate !== null && !isTaxRate(taxRate)) return { error: BILLING_TEXTS.taxRateInvalid };
  return { value: { ...(value as Omit<DoctorBillingDetails, 'taxRate'>), taxRate } };
}

export function isCurrency(code: string): boolean {
  if (!/^[A-Za-z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
}
