import type { Case } from '../case/case.js';
import type { CaseEvent } from '../case/events.js';
import { CASE_STATUSES, STATUS_LABELS, type CaseStatus } from '../case/status.js';
import { addDays, isIsoDate } from '../validation/validation.js';

/** Reports: the lab manager's "are we on time, and where do cases wait?" (api.md, Reports). */

/** The longest range a report covers, in days: five years, a week per row at most ~260 rows. */
export const MAX_REPORT_DAYS = 1830;
/** Weeks the Reports screen shows when the manager has not chosen a range. */
export const DEFAULT_REPORT_WEEKS = 12;

export const REPORT_TEXTS = {
  missingRange: 'Give the report range as from=YYYY-MM-DD and to=YYYY-MM-DD.',
  notADate: (name: 'from' | 'to', value: string) =>
    `${name} must be a date as YYYY-MM-DD (got "${value.slice(0, 40)}").`,
  fromAfterTo: 'The report range must start (from) on or before its end (to).',
  tooLong: `The report range may cover at most ${MAX_REPORT_DAYS} days.`,
  managersOnly: 'Reports are for managers.',
  title: 'Reports',
  noCompleted: 'No case was completed in this range.',
  downloadCsv: 'Download CSV',
} as const;

export type RemakeKind = 'remake' | 'refinement';

/**
 * Where a follow-up case comes from (CaseCreated's `origin`, set by a reorder), as the reports
 * keep it; the Case's own is CaseOrigin.
 */
export interface ReportOrigin {
  caseId: string;
  kind: RemakeKind;
  reasonCode: string | null;
}

export interface StageFigures {
  status: CaseStatus;
  /** Cases completed in the range that spent time in this status. */
  cases: number;
  /** Per case, the hours spent in the status (every visit together): their mean and 90th percentile. */
  averageHours: number;
  p90Hours: number;
}

export interface WeekFigures {
  /** The Monday the week starts on. */
  weekStart: string;
  completed: number;
  onTime: number;
}

/** Cases completed in the range for one doctor or one clinic. */
export interface GroupFigures {
  name: string;
  completed: number;
  onTime: number;
  averageTurnaroundDays: number;
}

export interface ReportSummary {
  from: string;
  to: string;
  completed: number;
  onTime: number;
  /** onTime / completed, 0 when nothing was completed. */
  onTimeRate: number;
  averageTurnaroundDays: number;
  byStage: StageFigures[];
  byWeek: WeekFigures[];
  /** Remakes ordered (created) in the range, by reason code. */
  remakes: { total: number; byReasonCode: Record<string, number> };
  byDoctor: GroupFigures[];
  byClinic: GroupFigures[];
}

export type ReportRange = { from: string; to: string };

/** The range of a report request, or the 400's text. */
export function parseReportRange(from: unknown, to: unknown): { range: ReportRange } | { error: string } {
  if (typeof from !== 'string' || typeof to !== 'string' || !from || !to)
    return { error: REPORT_TEXTS.missingRange };
  if (!isIsoDate(from)) return { error: REPORT_TEXTS.notADate('from', from) };
  if (!isIsoDate(to)) return { error: REPORT_TEXTS.notADate('to', to) };
  if (from > to) return { error: REPORT_TEXTS.fromAfterTo };
  if (daysBetween(from, to) + 1 > MAX_REPORT_DAYS) return { error: REPORT_TEXTS.tooLong };
  return { range: { from, to } };
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Weeks start on Monday (ISO 8601), as the lab plans its week. */
export function weekStart(date: string): string {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  return addDays(date, -((day + 6) % 7));
}

/** The Mondays of every week the range touches, oldest first. */
export function weeksOf({ from, to }: ReportRange): string[] {
  const weeks: string[] = [];
  for (let week = weekStart(from); week <= to; week = addDays(week, 7)) weeks.push(week);
  return weeks;
}

/** The default range of the screen: the last `weeks` weeks up to today, whole weeks from a Monday. */
export function defaultReportRange(today: string, weeks = DEFAULT_REPORT_WEEKS): ReportRange {
  return { from: addDays(weekStart(today), -7 * (weeks - 1)), to: today };
}

/** The statuses time is counted in, in the manufacturing order (Completed is where cases end). */
export const REPORT_STAGES: CaseStatus[] = CASE_STATUSES.filter(
  (status) => status !== STATUS_LABELS.Completed,
);

/** A status a case left: the reports' stage-time row, written with the event that left it. */
export interface StageInterval {
  status: CaseStatus;
  enteredAt: string;
  leftAt: string;
}

/**
 * The status `previous` left when an event made `next` of it, or null. A restore (CaseImported)
 * replaces the case with what it carries: it leaves nothing, the reports count the case as it
 * comes. `previous` must be read before the event is applied (evolveInPlace changes it).
 */
export function leftStatus(
  previous: Pick<Case, 'status' | 'statusEnteredAt'> | null,
  event: Pick<CaseEvent, 'type'>,
  next: Pick<Case, 'status' | 'statusEnteredAt'>,
): StageInterval | null {
  if (!previous || event.type === 'CaseImported' || previous.status === next.status) return null;
  return { status: previous.status, enteredAt: previous.statusEnteredAt, leftAt: next.statusEnteredAt };
}

/**
 * Whether `origin` (a case's, or a CaseCreated's) is one the reports count: a remake or a
 * refinement of a named case. It reads the fields in place, allocating nothing, because the
 * replay asks it of every case twice per event.
 */
export function isReportOrigin(
  origin: unknown,
): origin is { caseId: string; kind: RemakeKind; reasonCode?: unknown } {
  const given = origin as { caseId?: unknown; kind?: unknown } | null | undefined;
  return (
    !!given && typeof given.caseId === 'string' && (given.kind === 'remake' || given.kind === 'refinement')
  );
}

/** The reason code the reports give a counted origin: its code when that is text, else null. */
export function originReasonCode(origin: { reasonCode?: unknown }): string | null {
  return typeof origin.reasonCode === 'string' ? origin.reasonCode : null;
}

/**
 * The origin an event gives a case: a reorder's CaseCreated carries `origin`, a restored case
 * carries it in its Case. Undefined: the event says nothing of it (the case keeps its origin);
 * null: the case has none.
 */
export function originFrom(event: { type: string; data: unknown }): ReportOrigin | null | undefined {
  if (event.type !== 'CaseCreated' && event.type !== 'CaseImported') return undefined;
  const data = event.data as { origin?: unknown; case?: { origin?: unknown } } | null;
  const origin = event.type === 'CaseCreated' ? data?.origin : data?.case?.origin;
  if (!isReportOrigin(origin)) return null;
  return { caseId: origin.caseId, kind: origin.kind, reasonCode: originReasonCode(origin) };
}

/** The header of GET /reports/cases.csv (api.md). */
export const CASES_CSV_HEADER = [
  'id',
  'patient',
  'doctor',
  'clinic',
  'created',
  'due',
  'completed',
  'onTime',
  'turnaroundDays',
  'remakes',
] as const;

/**
 * One CSV cell (RFC 4180 quoting). Text a spreadsheet would take as a formula (starting with
 * = + - @, or a tab or carriage return before one) is prefixed with an apostrophe; numbers are
 * written as they are.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document: header and rows, CRLF line ends (RFC 4180). */
export function toCsv(header: readonly string[], rows: (string | number | boolean | null)[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
