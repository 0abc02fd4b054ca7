import {
  REPORT_STAGES,
  STATUS_LABELS,
  type Case,
  type CaseOrigin,
  type StageInterval,
} from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';

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
 * The report_cases columns of a case, in the order of the INSERTs below. `origin`: the case's
 * origin as far as known (the commands know it only when they create the case).
 */
export function reportCaseRow(
  state: Case,
  origin: CaseOrigin | null,
  stageMs: StageMs,
  position: string,
): unknown[] {
  const completed = state.status === STATUS_LABELS.Completed;
  return [
    state.id,
    state.patientName ?? '',
    state.doctorName ?? '',
    state.clinicName ?? '',
    state.createdDate,
    state.deliveryDate,
    state.status,
    completed ? state.statusEnteredAt : null,
    state.deleted ?? false,
    origin?.caseId ?? null,
    origin?.kind ?? null,
    origin?.reasonCode ?? null,
    stageMs && `{${stageMs.map((ms) => ms ?? 'NULL').join(',')}}`,
    state.version,
    position,
  ];
}

/**
 * report_cases.stage_ms as the rebuild holds it: milliseconds per status of REPORT_STAGES (index
 * 0 is slot 1), null where the case never left that status; null for a case that left none.
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

export function intervalRow(row: IntervalRow): unknown[] {
  return [row.caseId, row.version, row.status, row.enteredAt, row.leftAt];
}

const CASE_COLUMNS = `id, patient, doctor, clinic, created_at, due_date, status, completed_at, deleted,
  origin_case_id, origin_kind, origin_reason_code, stage_ms, version, last_position`;
const CASE_TYPES = [
  'text',
  'text',
  'text',
  'text',
  'timestamptz',
  'date',
  'text',
  'timestamptz',
  'boolean',
  'text',
  'text',
  'text',
  'bigint[]',
  'int',
  'bigint',
];
/** Every column but the origin, which only the case's creation (or a restore) sets. */
const UPDATE_BUT_ORIGIN = `patient = excluded.patient, doctor = excluded.doctor, clinic = excluded.clinic,
  created_at = excluded.created_at, due_date = excluded.due_date, status = excluded.status,
  completed_at = excluded.completed_at, deleted = excluded.deleted, version = excluded.version,
  last_position = excluded.last_position`;
const UPDATE_ORIGIN = `origin_case_id = excluded.origin_case_id, origin_kind = excluded.origin_kind,
  origin_reason_code = excluded.origin_reason_code`;

/**
 * The writes of a command as SQL, one data-modifying CTE body each, for the event store's append
 * statement (as CaseViewProjection.upsertSql): the case's row, and a row per status its events
 * left. `origin` is known (and written) when the command created the case; otherwise the row
 * keeps the origin it has.
 */
export function reportUpsertSql(
  state: Case,
  origin: CaseOrigin | null | undefined,
  intervals: IntervalRow[],
  sql: { param: (value: unknown) => string; lastPosition: string; when: string },
  tables = LIVE_REPORT_TABLES,
): string[] {
  const p = sql.param;
  const values = reportCaseRow(state, origin ?? null, null, '0');
  // The stage times grow by the statuses this command left (report_stage_add, migration 023).
  const left = intervals.filter((interval) => stageSlot(interval.status) > 0);
  const stageMs = (base: string) =>
    left.length
      ? `report_stage_add(${base}, ${p(left.map((interval) => stageSlot(interval.status)))}::int[], ${p(left.map(intervalMs))}::bigint[])`
      : base;
  const selected = values
    .map((value, index) => {
      if (CASE_TYPES[index] === 'bigint[]') return stageMs('NULL::bigint[]');
      if (index === values.length - 1) return `${sql.lastPosition}::bigint`;
      return `${p(value)}::${CASE_TYPES[index]}`;
    })
    .join(', ');
  const updates = [
    UPDATE_BUT_ORIGIN,
    ...(origin !== undefined ? [UPDATE_ORIGIN] : []),
    ...(left.length ? [`stage_ms = ${stageMs(`${tables.reportCases}.stage_ms`)}`] : []),
  ];
  const writes = [
    `INSERT INTO ${tables.reportCases} (${CASE_COLUMNS})
     SELECT ${selected} WHERE ${sql.when}
     ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`,
  ];
  for (const interval of intervals) {
    const [caseId, version, status, enteredAt, leftAt] = intervalRow(interval);
    writes.push(
      `INSERT INTO ${tables.reportStages} (case_id, version, status, entered_at, left_at)
       SELECT ${p(caseId)}, ${p(version)}::int, ${p(status)}, ${p(enteredAt)}::timestamptz, ${p(leftAt)}::timestamptz
        WHERE ${sql.when}
       ON CONFLICT (case_id, version) DO NOTHING`,
    );
  }
  return writes;
}

/** Rows for writeReportRows. */
export interface PendingReportRows {
  /** reportCaseRow rows: every column written, the origin and stage times included. */
  cases: unknown[][];
  intervals: unknown[][];
  /** Cases a restore replaced: their stage rows go before `intervals` are written. */
  intervalsReplaced: string[];
}

export const NO_REPORT_ROWS: PendingReportRows = { cases: [], intervals: [], intervalsReplaced: [] };

/** Bulk writes (rebuild, restore): one statement per table, one array per column. */
export async function writeReportRows(
  runner: QueryRunner,
  tables: ReportTables,
  pending: PendingReportRows,
): Promise<void> {
  if (pending.cases.length) {
    const names = CASE_COLUMNS.split(',').map((name) => name.trim());
    await runner.query(
      `INSERT INTO ${tables.reportCases} (${CASE_COLUMNS})
       SELECT ${names.map((name) => `r.${name}::${CASE_TYPES[names.indexOf(name)]}`).join(', ')}
         FROM unnest(${names.map((_, index) => `$${index + 1}::text[]`).join(', ')}) AS r(${CASE_COLUMNS})
       ON CONFLICT (id) DO UPDATE SET ${UPDATE_BUT_ORIGIN}, ${UPDATE_ORIGIN}, stage_ms = excluded.stage_ms`,
      columns(pending.cases, names.length).map((column) => column.map(asText)),
    );
  }
  if (pending.intervalsReplaced.length) {
    await runner.query(`DELETE FROM ${tables.reportStages} WHERE case_id = ANY($1::text[])`, [
      pending.intervalsReplaced,
    ]);
  }
  if (pending.intervals.length) {
    await runner.query(
      `INSERT INTO ${tables.reportStages} (case_id, version, status, entered_at, left_at)
       SELECT r.case_id, r.version, r.status, r.entered_at::timestamptz, r.left_at::timestamptz
         FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[])
           AS r(case_id, version, status, entered_at, left_at)
       ON CONFLICT (case_id, version) DO NOTHING`,
      columns(pending.intervals, 5),
    );
  }
}

function asText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function columns(rows: unknown[][], width: number): unknown[][] {
  const result = Array.from({ length: width }, () => new Array<unknown>(rows.length));
  rows.forEach((row, index) => row.forEach((value, column) => (result[column][index] = value)));
  return result;
}

/**
 * The writes of reportUpsertSql as a statement of their own, in the caller's transaction (a
 * restore's deletions, which append outside the command path).
 */
export async function applyReportRows(
  runner: QueryRunner,
  state: Case,
  origin: CaseOrigin | null | undefined,
  intervals: IntervalRow[],
  lastPosition: string,
): Promise<void> {
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const writes = reportUpsertSql(state, origin, intervals, {
    param,
    lastPosition: param(lastPosition),
    when: 'true',
  });
  await runner.query(
    `WITH ${writes.map((sql, index) => `w${index} AS (${sql})`).join(', ')} SELECT 1`,
    params,
  );
}
