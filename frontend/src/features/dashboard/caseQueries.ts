import {
  STATUS_LABELS,
  isActiveStatus,
  statusIndex,
  type CaseSummary,
  type CaseStatus,
} from '@alignerflow/domain';
import type { StageTime } from '../../api/client';
import { parseDay } from '../../components/format';

/** Spec section 2: case id, patient name or doctor name, case-insensitive substring. */
export function matchesSearch(
  item: Pick<CaseSummary, 'id' | 'patientName' | 'doctorName'>,
  query: string,
): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return [item.id, item.patientName, item.doctorName].some((field) =>
    (field ?? '').toLowerCase().includes(needle),
  );
}

export const AT_RISK_DAYS = 2;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days from today to the due date (negative when overdue); undefined without a due date. */
export function daysUntilDue(
  item: Pick<CaseSummary, 'deliveryDate'>,
  now: Date = new Date(),
): number | undefined {
  if (!item.deliveryDate) return undefined;
  const due = parseDay(item.deliveryDate);
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const dueDay = new Date(due.getFullYear(), due.getMonth(), due.getDate());
  return Math.round((dueDay.getTime() - today.getTime()) / DAY_MS);
}

/** At risk: active, due within 2 days (or overdue) and not yet at Packaging & Labeling or later. */
export function isAtRisk(
  item: Pick<CaseSummary, 'status' | 'deliveryDate'>,
  now: Date = new Date(),
): boolean {
  return isAtRiskBefore(item, atRiskCutoff(now));
}

/** The cases at risk now: one clock reading and no date arithmetic per case (5,000 on a big lab's dashboard). */
export function casesAtRisk<T extends Pick<CaseSummary, 'status' | 'deliveryDate'>>(cases: T[]): T[] {
  const cutoff = atRiskCutoff(new Date());
  return cases.filter((item) => isAtRiskBefore(item, cutoff));
}

/** Due before this instant (local midnight starting the third day from today) is due within 2 days. */
function atRiskCutoff(now: Date): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + AT_RISK_DAYS + 1).getTime();
}

function isAtRiskBefore(item: Pick<CaseSummary, 'status' | 'deliveryDate'>, cutoff: number): boolean {
  if (!isActiveStatus(item.status) || !item.deliveryDate) return false;
  // The status first: it is cheaper than the date, and rules out every case past production.
  const index = statusIndex(item.status);
  if (index < 0 || index >= statusIndex(STATUS_LABELS.PackagingLabeling)) return false;
  const due = parseDay(item.deliveryDate).getTime();
  // An unreadable due date counts as at risk, as it always has: someone should look at it.
  return !(due >= cutoff);
}

/** Time in stage from the cases themselves, for servers whose dashboard does not carry it. */
export function timeInStageOf(
  cases: CaseSummary[],
  now: Date = new Date(),
): Partial<Record<CaseStatus, StageTime>> {
  const result: Partial<Record<CaseStatus, StageTime>> = {};
  for (const item of cases) {
    if (!isActiveStatus(item.status) || !item.statusEnteredAt) continue;
    const hours = Math.max(0, (now.getTime() - new Date(item.statusEnteredAt).getTime()) / 3_600_000);
    const entry = result[item.status] ?? { count: 0, averageHours: 0, maxHours: 0 };
    entry.averageHours = (entry.averageHours * entry.count + hours) / (entry.count + 1);
    entry.count += 1;
    entry.maxHours = Math.max(entry.maxHours, hours);
    result[item.status] = entry;
  }
  return result;
}
