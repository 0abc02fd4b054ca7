/**
 * The rows a replay or a restore writes into the read-model tables (live or shadow): each read
 * model's own definition (its columns, its row of a state, its upsert), written in bulk, one
 * statement per table for the whole batch.
 */
import type { Case, UserState } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { writeRows } from '../event-store/read-model.js';
import {
  LIVE_REPORT_TABLES,
  writeReportRows,
  type PendingReportRows,
  type ReportTables,
} from '../reports/report-rows.projection.js';
import { USER_VIEW, userViewValues } from '../users/user-view.projection.js';
import {
  CASE_NOTES,
  CASE_VIEW,
  caseViewRow,
  eraseNoteRows,
  noteRows as caseNoteRows,
  type NotesErasure,
} from '../cases/projections/case-view.projection.js';
import { CASE_IDS } from '../cases/projections/case-ids.projection.js';

export { caseIdRows } from '../cases/projections/case-ids.projection.js';

/** Where rows go: the live read models, or their shadows during a rebuild. */
export interface ReadModelTables extends ReportTables {
  caseView: string;
  caseNotes: string;
  userView: string;
  caseIds: string;
}

export const LIVE_TABLES: ReadModelTables = {
  caseView: CASE_VIEW.table,
  caseNotes: CASE_NOTES.table,
  userView: USER_VIEW.table,
  caseIds: CASE_IDS.table,
  ...LIVE_REPORT_TABLES,
};

export interface Entry<S> {
  state: S;
  /** Global position of the last event applied to the stream: the row's last_position. */
  position: string;
  /**
   * Cases: how many of the case's notes (from the first) its case_notes rows hold; the rows of
   * the others are written with the case's row. 0 and a replaced case: every note is written, and
   * rows beyond the case's notes are removed (a restore may bring a case with fewer notes).
   */
  notesWritten?: number;
  notesReplaced?: boolean;
}

/**
 * Writes rows with one statement per table (read-model.ts writeRows): one array per column,
 * unnested by PostgreSQL, a handful of parameters however many rows, no per-row round trip; the
 * documents as one text of JSON lines, each parsed once, as jsonb. The statements are those of
 * the commands' appends: the definitions are the read models' own.
 */
export async function writeReadModelRows(
  runner: QueryRunner,
  tables: ReadModelTables,
  pending: PendingRows,
): Promise<void> {
  await writeRows(runner, CASE_VIEW, pending.cases, tables.caseView);
  if (pending.notesReplaced.length) {
    await runner.query(`DELETE FROM ${tables.caseNotes} WHERE case_id = ANY($1::text[])`, [
      pending.notesReplaced,
    ]);
  }
  await writeRows(runner, CASE_NOTES, pending.notes, tables.caseNotes);
  // After the notes: those written just now come from the erased state already.
  await eraseNoteRows(runner, pending.notesErased, tables.caseNotes);
  await writeRows(runner, USER_VIEW, pending.users, tables.userView);
  if (pending.reports) await writeReportRows(runner, tables, pending.reports);
  await writeRows(runner, CASE_IDS, pending.caseIds, tables.caseIds);
}

/** Rows taken for writing, one array of column values per row (the read models' columns). */
export interface PendingRows {
  cases: unknown[][];
  /** case_notes rows: case id, ordinal, the note's JSON. */
  notes: unknown[][];
  /** Cases whose notes rows are all removed before `notes` are written. */
  notesReplaced: string[];
  /** Cases erased, whose note rows written before the erasure lose their texts. */
  notesErased: NotesErasure[];
  users: unknown[][];
  caseIds: unknown[][];
  /** The reports' rows (report-rows.projection.ts). */
  reports?: PendingReportRows;
}

/** The case_view row of an entry (CASE_VIEW). */
export function caseRow({ state, position }: Entry<Case>): unknown[] {
  return caseViewRow(state, position);
}

/** The case_notes rows of the notes `entry` holds that its rows do not (Entry.notesWritten). */
export function noteRows({ state, notesWritten = 0 }: Entry<Case>): unknown[][] {
  return caseNoteRows(state, notesWritten);
}

/** The user_view row of a state (USER_VIEW). */
export function userRow({ state, position }: Entry<UserState>): unknown[] {
  return userViewValues(state, position);
}
