import { STATUS_LABELS, isActiveStatus, statusIndex, type CaseStatus } from './status.js';
import { shipByDate } from '../materials/ship-by.js';
import type { Shipment } from '../materials/shipping.js';

/** A case is at risk when its due date is this many days away or fewer (api.md, Reach and insight). */
export const AT_RISK_DAYS = 2;

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the at-risk rule reads of a case: a summary or a full case both fit. */
export interface DueCase {
  status: CaseStatus;
  deliveryDate?: string | null;
  onHold?: boolean;
  /** A case not yet shipped is due by its ship-by date (the due date minus the transit days). */
  shipments?: Shipment[];
}

/** A 'YYYY-MM-DD' due date as local midnight (the lab's day), anything else as Date parses it. */
export function parseDueDay(value: string): Date {
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return plain ? new Date(Number(plain[1]), Number(plain[2]) - 1, Number(plain[3])) : new Date(value);
}

/** Whole days from today to the due date (negative when overdue); undefined without a due date. */
export function daysUntilDue(
  item: Pick<DueCase, 'deliveryDate'>,
  now: Date = new Date(),
): number | undefined {
  if (!item.deliveryDate) return undefined;
  const due = parseDueDay(item.deliveryDate);
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const dueDay = new Date(due.getFullYear(), due.getMonth(), due.getDate());
  return Math.round((dueDay.getTime() - today.getTime()) / DAY_MS);
}

/**
 * At risk: active, not held, not yet at Packaging & Labeling or later, and due within
 * `atRiskDays` days or past. One rule for the dashboard, the work queue and the alerts.
 */
export function isAtRisk(
  item: DueCase,
  now: Date = new Date(),
  atRiskDays = AT_RISK_DAYS,
  transitDays = 0,
): boolean {
  return isAtRiskBefore(item, atRiskCutoff(now, atRiskDays), transitDays);
}

/** The cases at risk now: one clock reading for the whole list, not one per case. */
export function casesAtRisk<T extends DueCase>(
  cases: T[],
  now: Date = new Date(),
  atRiskDays = AT_RISK_DAYS,
  transitDays = 0,
): T[] {
  const cutoff = atRiskCutoff(now, atRiskDays);
  return cases.filter((item) => isAtRiskBefore(item, cutoff, transitDays));
}

/** Overdue: an active case whose due day (its ship-by day while not shipped) has passed. */
export function isOverdue(item: DueCase, now: Date = new Date(), transitDays = 0): boolean {
  if (!isActiveStatus(item.status)) return false;
  const days = daysUntilDue({ deliveryDate: shipByDate(item, transitDays) }, now);
  return days !== undefined && days < 0;
}

/** Due before this instant (local midnight after the last day counted) is due within the window. */
function atRiskCutoff(now: Date, atRiskDays: number): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + atRiskDays + 1).getTime();
}

function isAtRiskBefore(item: DueCase, cutoff: number, transitDays: number): boolean {
  if (!isActiveStatus(item.status) || item.onHold || !item.deliveryDate) return false;
  // The status first: it is cheaper than the date, and rules out every case past production.
  const index = statusIndex(item.status);
  if (index < 0 || index >= statusIndex(STATUS_LABELS.PackagingLabeling)) return false;
  const due = parseDueDay(shipByDate(item, transitDays) ?? item.deliveryDate).getTime();
  // An unreadable due date counts as at risk: someone should look at it.
  return !(due >= cutoff);
}
