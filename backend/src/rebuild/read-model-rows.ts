/** The rows a replay writes into the read-model tables (live or shadow), built from folded states. */
import { notesSize, type Case, type UserState } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import {
  LIVE_REPORT_TABLES,
  writeReportRows,
  type PendingReportRows,
  type ReportTables,
} from '../reports/report-rows.projection.js';
import { userViewValues } from '../users/user-view.projection.js';
import { CASE_VIEW_UPSERT } from '../cases/projections/case-view.projection.js';

/** Where rows go: the live read models, or their shadows during a rebuild. */
export interface ReadModelTables extends ReportTables {
  caseView: string;
  caseNotes: string;
  userView: string;
  caseIds: string;
}

export const LIVE_TABLES: ReadModelTables = {
  caseView: 'case_view',
  caseNotes: 'case_notes',
  userView: 'user_view',
  caseIds: 'case_ids',
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

const CASE_ID = /^CA-(\d{4})-(\d+)$/;

/**
 * Writes rows in three statements. The rows go as one array per column, unnested by
 * PostgreSQL: a handful of parameters however many rows, no per-row round trip. The case
 * documents go as one text of JSON lines (JSON never holds a raw newline) split by
 * string_to_array, each parsed once, as jsonb: twice as fast as json_to_recordset, and far
 * faster than a text[] parameter, whose quoting of every '"' costs more than the rest.
 * The columns and the conflict handling are those of the inline projections.
 */
export async function writeReadModelRows(
  runner: QueryRunner,
  tables: ReadModelTables,
  pending: PendingRows,
): Promise<void> {
  if (pending.cases.length) {
    await runner.query(
      `INSERT INTO ${tables.caseView} (id, data, status, assigned_doctor, on_hold, delivery_date,
              status_entered_at, created_date, version, deleted, last_position, note_count, notes_text_length)
       SELECT r.id, r.data::jsonb, r.status, r.assigned_doctor, r.on_hold, r.delivery_date::date,
              r.status_entered_at::timestamptz, r.created_date::timestamptz, r.version, r.deleted,
              r.last_position::bigint, r.note_count, r.notes_text_length
         FROM unnest($1::text[], string_to_array($2::text, E'\\n'), $3::text[], $4::text[], $5::boolean[],
                     $6::text[], $7::text[], $8::text[], $9::int[], $10::boolean[], $11::text[], $12::int[],
                     $13::int[])
           AS r(id, data, status, assigned_doctor, on_hold, delivery_date, status_entered_at, created_date,
                version, deleted, last_position, note_count, notes_text_length)
       ${CASE_VIEW_UPSERT}`,
      columns(pending.cases, 13).map((column, index) => (index === 1 ? column.join('\n') : column)),
    );
  }
  if (pending.notesReplaced.length) {
    await runner.query(`DELETE FROM ${tables.caseNotes} WHERE case_id = ANY($1::text[])`, [
      pending.notesReplaced,
    ]);
  }
  if (pending.notes.length) {
    const [ids, ordinals, notes] = columns(pending.notes, 3);
    await runner.query(
      `INSERT INTO ${tables.caseNotes} (case_id, ordinal, note)
       SELECT r.id, r.ordinal, r.note::jsonb
         FROM unnest($1::text[], $2::int[], string_to_array($3::text, E'\\n')) AS r(id, ordinal, note)
       ON CONFLICT (case_id, ordinal) DO UPDATE SET note = excluded.note`,
      [ids, ordinals, notes.join('\n')],
    );
  }
  if (pending.users.length) {
    await runner.query(
      `INSERT INTO ${tables.userView} (username_key, username, role, email, activation_sound_enabled,
              password_hash, version, deleted, last_position, notify_push, notify_email)
       SELECT r.username_key, r.username, r.role, r.email, r.activation_sound_enabled, r.password_hash,
              r.version, r.deleted, r.last_position::bigint, r.notify_push, r.notify_email
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::text[], $7::int[],
                     $8::boolean[], $9::text[], $10::boolean[], $11::boolean[])
           AS r(username_key, username, role, email, activation_sound_enabled, password_hash, version, deleted,
                last_position, notify_push, notify_email)
       ON CONFLICT (username_key) DO UPDATE SET username = excluded.username, role = excluded.role,
         email = excluded.email, activation_sound_enabled = excluded.activation_sound_enabled,
         password_hash = excluded.password_hash, version = excluded.version, deleted = excluded.deleted,
         last_position = excluded.last_position, notify_push = excluded.notify_push,
         notify_email = excluded.notify_email`,
      columns(pending.users, 11),
    );
  }
  if (pending.reports) await writeReportRows(runner, tables, pending.reports);
  if (pending.caseIds.length) {
    await runner.query(
      `INSERT INTO ${tables.caseIds} (id, year, suffix)
       SELECT * FROM unnest($1::text[], $2::int[], $3::int[])
       ON CONFLICT DO NOTHING`,
      columns(pending.caseIds, 3),
    );
  }
}

/** Rows taken for writing, one array of column values per row. */
export interface PendingRows {
  cases: unknown[][];
  /** case_notes rows: case id, ordinal, the note's JSON. */
  notes: unknown[][];
  /** Cases whose notes rows are all removed before `notes` are written. */
  notesReplaced: string[];
  users: unknown[][];
  caseIds: unknown[][];
  /** The reports' rows (report-rows.projection.ts). */
  reports?: PendingReportRows;
}

export interface OriginRow {
  id: string;
  origin_case_id: string | null;
  origin_kind: string | null;
  origin_reason_code: string | null;
  stage_ms: (number | null)[] | null;
}

/** Rows to one array per column. */
export function columns(rows: unknown[][], width: number): unknown[][] {
  const result = Array.from({ length: width }, () => new Array<unknown>(rows.length));
  rows.forEach((row, index) => row.forEach((value, column) => (result[column][index] = value)));
  return result;
}

/** The case_ids row of an id (none for an id of another shape), for writeReadModelRows. */
export function caseIdRows(id: string): unknown[][] {
  const match = CASE_ID.exec(id);
  return match ? [[id, Number(match[1]), Number(match[2])]] : [];
}

/** The columns CaseViewProjection.apply writes for a state, in the order of writeReadModelRows. */
export function caseRow({ state, position }: Entry<Case>): unknown[] {
  const deleted = state.deleted ?? false;
  const size = notesSize(state);
  return [
    state.id,
    JSON.stringify(rowDocument(state)),
    state.status,
    state.assignedDoctorUsername?.toLowerCase() ?? null,
    state.onHold,
    state.deliveryDate,
    state.statusEnteredAt,
    state.createdDate,
    state.version,
    deleted,
    position,
    size.count,
    size.textLength,
  ];
}

/** The case_notes rows of the notes `entry` holds that its rows do not (Entry.notesWritten). */
export function noteRows({ state, notesWritten = 0 }: Entry<Case>): unknown[][] {
  const base = state.earlierNotes?.count ?? 0;
  const from = Math.max(notesWritten, base);
  return state.notes.slice(from - base).map((note, index) => [state.id, from + index, JSON.stringify(note)]);
}

/** The document of a case_view row: the state without `deleted` and its notes (rows of their own). */
export function rowDocument({
  deleted: _deleted,
  notes: _notes,
  earlierNotes: _earlier,
  ...data
}: Case): Omit<Case, 'deleted' | 'notes' | 'earlierNotes'> {
  return data;
}

/** The user_view row of a state, as UserViewProjection.apply writes it. */
export function userRow({ state, position }: Entry<UserState>): unknown[] {
  return userViewValues(state, position);
}
