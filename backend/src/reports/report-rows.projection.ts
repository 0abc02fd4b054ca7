import {
  isReportOrigin,
  originReasonCode,
  REPORT_STAGES,
  STATUS_LABELS,
  type Case,
  type StageInterval,
} from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import {
  updateAll,
  writeRows,
  type ReadModel,
  type ReadModelColumn,
  type ReadModelRows,
} from '../event-store/read-model.js';

/** Where the reports' rows go: the live tables, or their shadows during a rebuild. */
export interface ReportTables {
  reportCases: string;
  reportStages: string;
}

export const LIVE_REPORT_TABLES: ReportTables = {
  reportCases: 'report_cases',
  reportStages: 'report_stage_intervals',
};

/** A stage-time row: the status a case left with the event of stream version `version`. */
export interface IntervalRow extends StageInterval {
  caseId: string;
  version: number;
}

/**
 * The report_cases values a case's events can change, in REPORT_CASES' order from `patient` to
 * `origin_reason_code`: an event that leaves them as they were, and leaves no status, leaves the
 * row alone (its version and position are those of the last event that changed it).
 */
export function reportFields(state: Case): unknown[] {
  const origin = isReportOrigin(state.origin) ? state.origin : null;
  return [
    state.patientName ?? '',
    state.doctorName ?? '',
    state.clinicName ?? '',
    state.createdDate,
    state.deliveryDate,
    state.status,
    state.status === STATUS_LABELS.Completed ? state.statusEnteredAt : null,
    state.deleted ?? false,
    origin?.caseId ?? null,
    origin?.kind ?? null,
    origin ? originReasonCode(origin) : null,
  ];
}

/** Whether two reportFields differ. */
export function reportFieldsDiffer(before: unknown[] | null, after: unknown[]): boolean {
  return !before || after.some((value, index) => value !== before[index]);
}

/**
 * The report_cases row of a case (REPORT_CASES' columns). `stageMs`: the stage times its events
 * added since the row was last written (null: none); `position` null when the append fills it in.
 */
export function reportCaseRow(
  state: Case,
  stageMs: StageMs,
  position: string | null,
  version = state.version,
): unknown[] {
  return [
    state.id,
    ...reportFields(state),
    stageMs && `{${stageMs.map((ms) => ms ?? 'NULL').join(',')}}`,
    version,
    position,
  ];
}

/**
 * report_cases.stage_ms: milliseconds per status of REPORT_STAGES (index 0 is slot 1), null
 * where the case never left that status; null for a case that left none.
 */
export type StageMs = (number | null)[] | null;

/** The status's slot in stage_ms (1-based), or 0 for a status outside the order. */
export function stageSlot(status: string): number {
  return REPORT_STAGES.indexOf(status as (typeof REPORT_STAGES)[number]) + 1;
}

export function intervalMs(interval: StageInterval): number {
  return Date.parse(interval.leftAt) - Date.parse(interval.enteredAt);
}

/** `base` plus the intervals: what SQL's report_stage_add (migration 023) gives, in memory. */
export function addStageMs(base: StageMs, intervals: StageInterval[]): StageMs {
  const added = intervals.filter((interval) => stageSlot(interval.status) > 0);
  if (!added.length) return base;
  const length = Math.max(base?.length ?? 0, ...added.map((interval) => stageSlot(interval.status)));
  const result: (number | null)[] = Array.from({ length }, (_, index) => base?.[index] ?? null);
  for (const interval of added) {
    const index = stageSlot(interval.status) - 1;
    result[index] = (result[index] ?? 0) + intervalMs(interval);
  }
  return result;
}

/** The report_stage_intervals row of a status left (REPORT_STAGE_INTERVALS' columns). */
export function intervalRow(row: IntervalRow): unknown[] {
  return [row.caseId, row.version, row.status, row.enteredAt, row.leftAt];
}

const REPORT_CASES_COLUMNS: ReadModelColumn[] = [
  { name: 'id', type: 'text' },
  { name: 'patient', type: 'text' },
  { name: 'doctor', type: 'text' },
  { name: 'clinic', type: 'text' },
  { name: 'created_at', type: 'timestamptz' },
  { name: 'due_date', type: 'date' },
  { name: 'status', type: 'text' },
  { name: 'completed_at', type: 'timestamptz' },
  { name: 'deleted', type: 'boolean' },
  { name: 'origin_case_id', type: 'text' },
  { name: 'origin_kind', type: 'text' },
  { name: 'origin_reason_code', type: 'text' },
  { name: 'stage_ms', type: 'bigint[]' },
  { name: 'version', type: 'int' },
  { name: 'last_position', type: 'bigint', position: true },
];

/**
 * report_cases: one row per case with what the reports count. A row brings the stage times added
 * since the last (report_stage_sum, migrations/045); a restored case's row is removed first
 * (PendingReportRows.replaced), so it starts from what it carries.
 */
export const REPORT_CASES: ReadModel = {
  table: 'report_cases',
  columns: REPORT_CASES_COLUMNS,
  key: ['id'],
  update: updateAll(REPORT_CASES_COLUMNS, ['id']).replace(
    'stage_ms = excluded.stage_ms',
    'stage_ms = report_stage_sum(t.stage_ms, excluded.stage_ms)',
  ),
};

/** report_stage_intervals: a row per status a case left, written with the event that left it. */
export const REPORT_STAGE_INTERVALS: ReadModel = {
  table: 'report_stage_intervals',
  columns: [
    { name: 'case_id', type: 'text' },
    { name: 'version', type: 'int' },
    { name: 'status', type: 'text' },
    { name: 'entered_at', type: 'timestamptz' },
    { name: 'left_at', type: 'timestamptz' },
  ],
  key: ['case_id', 'version'],
};

/**
 * The reports' rows a command writes when its events made `next` of `previous`, leaving the
 * statuses of `intervals` (for its append, whose position the rows get): the case's row only if
 * it changed, a row per status left.
 */
export function reportWrites(previous: Case | null, next: Case, intervals: IntervalRow[]): ReadModelRows[] {
  const fields = reportFields(next);
  const changed = intervals.length > 0 || reportFieldsDiffer(previous && reportFields(previous), fields);
  return [
    { model: REPORT_CASES, rows: changed ? [reportCaseRow(next, addStageMs(null, intervals), null)] : [] },
    { model: REPORT_STAGE_INTERVALS, rows: intervals.map(intervalRow) },
  ];
}

/** Rows for writeReportRows. */
export interface PendingReportRows {
  /** reportCaseRow rows, with their positions. */
  cases: unknown[][];
  intervals: unknown[][];
  /** Cases a restore replaced: their rows go before `cases` and `intervals` are written. */
  intervalsReplaced: string[];
}

export const NO_REPORT_ROWS: PendingReportRows = { cases: [], intervals: [], intervalsReplaced: [] };

/** Bulk writes (rebuild, restore): one statement per table, one array per column. */
export async function writeReportRows(
  runner: QueryRunner,
  tables: ReportTables,
  pending: PendingReportRows,
): Promise<void> {
  if (pending.intervalsReplaced.length) {
    await runner.query(
      `WITH cases AS (DELETE FROM ${tables.reportCases} WHERE id = ANY($1::text[]))
       DELETE FROM ${tables.reportStages} WHERE case_id = ANY($1::text[])`,
      [pending.intervalsReplaced],
    );
  }
  await writeRows(runner, REPORT_CASES, pending.cases, tables.reportCases);
  await writeRows(runner, REPORT_STAGE_INTERVALS, pending.intervals, tables.reportStages);
}

/**
 * The reports' rows of an event appended outside the command path (a restore's deletions), in
 * the caller's transaction. `previous`: the state before it.
 */
export async function applyReportRows(
  runner: QueryRunner,
  state: Case,
  previous: Case | null | undefined,
  intervals: IntervalRow[],
  lastPosition: string,
): Promise<void> {
  for (const { model, rows } of reportWrites(previous ?? null, state, intervals)) {
    const position = model.columns.findIndex((column) => column.position);
    if (position >= 0) for (const row of rows) row[position] = lastPosition;
    await writeRows(runner, model, rows);
  }
}
