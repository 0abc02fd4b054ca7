/**
 * Texts that more than one feature shows: each feature's own `texts.ts` spreads the part it
 * uses, so a text is still written once and every screen reads it from its own texts module.
 */
export const CASE_ACTION_TEXTS = {
  completeAdvance: 'Complete Stage & Advance',
  actionFailed: 'Action failed',
} as const;

/** Due dates, as the dashboard's at-risk panel and My Queue's cards say them. */
export const DUE_TEXTS = {
  scan: 'Scan Case QR Code',
  overdueBy: (days: number) => `Overdue by ${days} day(s)`,
  dueToday: 'Due today',
  dueIn: (days: number) => `Due in ${days} day(s)`,
  atRiskBadge: 'At risk',
  shipBy: 'ship by',
} as const;

/** The materials' words the case's History tab repeats. */
export const DEVICE_TEXTS = {
  lotsUsed: 'Material lots used',
  trackingNumber: 'Tracking number',
  historyMachine: 'Machine',
  historyShipped: (who: string, carrier: string) => `${who} shipped the case by ${carrier}`,
  historyShippedOn: 'Shipped on',
  historyReceived: (who: string) => `${who} marked the case received`,
} as const;
