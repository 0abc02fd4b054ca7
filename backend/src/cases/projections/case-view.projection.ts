import { Injectable } from '@nestjs/common';
import { CASE_ERASURE, notesSize, NOTES_ONLY_EVENTS, type Case, type Note } from '@alignerflow/domain';
import { DataSource, type QueryRunner } from 'typeorm';
import {
  updateAll,
  writeTogether,
  type ReadModel,
  type ReadModelColumn,
  type ReadModelRows,
} from '../../event-store/read-model.js';

/** The document of a case_view row: the Case but for the columns beside it and its notes. */
export type CaseDocument = Omit<Case, 'deleted' | 'notes' | 'earlierNotes' | 'version'>;

/** The row of one case: the Case without its notes (rows of case_notes), `deleted` and `version`. */
export interface CaseViewRow {
  data: CaseDocument;
  version: number;
  deleted: boolean;
  note_count: number;
  notes_text_length: number;
}

/** The columns of case_view that make a CaseViewRow. */
export const CASE_VIEW_ROW_COLUMNS = 'data, version, deleted, note_count, notes_text_length';

/** SQL: a case_view row `v` as the Case summary of GET /cases and the live stream (jsonb). */
export const CASE_SUMMARY_SQL = `v.data || jsonb_build_object('version', v.version, 'noteCount', v.note_count)`;

/** SQL: a case_view row `v` as the whole Case, its notes from case_notes (jsonb). */
export const WHOLE_CASE_SQL = `v.data || jsonb_build_object('version', v.version, 'notes',
  (SELECT coalesce(jsonb_agg(n.note ORDER BY n.ordinal), '[]') FROM case_notes n WHERE n.case_id = v.id))`;

/** Where the projection writes: the live tables, or a rebuild's shadows. */
export interface CaseViewTables {
  caseView: string;
  caseNotes: string;
}

const LIVE: CaseViewTables = { caseView: 'case_view', caseNotes: 'case_notes' };

const CASE_VIEW_COLUMNS: ReadModelColumn[] = [
  { name: 'id', type: 'text' },
  { name: 'data', type: 'jsonb' },
  { name: 'status', type: 'text' },
  { name: 'assigned_doctor', type: 'text' },
  { name: 'on_hold', type: 'boolean' },
  { name: 'delivery_date', type: 'date' },
  { name: 'status_entered_at', type: 'timestamptz' },
  { name: 'created_date', type: 'timestamptz' },
  { name: 'version', type: 'int' },
  { name: 'deleted', type: 'boolean' },
  { name: 'last_position', type: 'bigint', position: true },
  { name: 'note_count', type: 'int' },
  { name: 'notes_text_length', type: 'int' },
];

/**
 * case_view: one row per case, the Case without its notes (rows of case_notes) and `deleted`.
 * A row whose document is JSON null keeps the stored document: the event changed only the
 * columns beside it (a note), and a row that leaves its indexed columns and its TOASTed document
 * as they were is updated in place (HOT, migrations/045).
 */
export const CASE_VIEW: ReadModel = {
  table: 'case_view',
  columns: CASE_VIEW_COLUMNS,
  key: ['id'],
  update: updateAll(CASE_VIEW_COLUMNS, ['id']).replace(
    'data = excluded.data',
    `data = CASE WHEN jsonb_typeof(excluded.data) = 'null' THEN t.data ELSE excluded.data END`,
  ),
};

/** case_notes: one row per note, so a note inserts a small row instead of rewriting the case. */
export const CASE_NOTES: ReadModel = {
  table: 'case_notes',
  columns: [
    { name: 'case_id', type: 'text' },
    { name: 'ordinal', type: 'int' },
    { name: 'note', type: 'jsonb' },
  ],
  key: ['case_id', 'ordinal'],
  update: 'note = excluded.note',
};

/**
 * The document of a case_view row: the state without its notes (rows of their own) and what has
 * a column (`deleted`, `version`), so an event that changes only those leaves it as it was.
 * Rows written before held `version` too; every reader takes the column's.
 */
export function rowDocument({
  deleted: _deleted,
  notes: _notes,
  earlierNotes: _earlier,
  version: _version,
  ...data
}: Case): CaseDocument {
  return data;
}

/**
 * The case_view row of `state` (CASE_VIEW's columns); `position` null when the append fills it
 * in. `document`: the row's document as JSON, or 'null' to keep the stored one.
 */
export function caseViewRow(
  state: Case,
  position: string | null,
  document = JSON.stringify(rowDocument(state)),
): unknown[] {
  const size = notesSize(state);
  return [
    state.id,
    document,
    state.status,
    state.assignedDoctorUsername?.toLowerCase() ?? null,
    state.onHold,
    state.deliveryDate,
    state.statusEnteredAt,
    state.createdDate,
    state.version,
    state.deleted ?? false,
    position,
    size.count,
    size.textLength,
  ];
}

/** The case_notes rows of the notes `state` holds beyond the first `written` (CASE_NOTES' columns). */
export function noteRows(state: Case, written = 0): unknown[][] {
  const base = state.earlierNotes?.count ?? 0;
  const from = Math.max(written, base);
  return state.notes.slice(from - base).map((note, index) => [state.id, from + index, JSON.stringify(note)]);
}

/** A case erased (CaseErased): its notes' rows whose texts go, the first `notes` (null: every one). */
export interface NotesErasure {
  caseId: string;
  notes: number | null;
}

/**
 * Replaces the text of the erased cases' note rows in `table` (their author and time stay): what
 * an erasure does to the rows written before it, whoever wrote them (the erasure's own
 * transaction, or a rebuild that wrote them into its shadow table before it reached the erasure).
 */
export async function eraseNoteRows(
  runner: QueryRunner,
  erasures: NotesErasure[],
  table = CASE_NOTES.table,
): Promise<void> {
  if (!erasures.length) return;
  await runner.query(
    `UPDATE ${table} AS n SET note = jsonb_set(n.note, '{text}', to_jsonb($3::text))
       FROM unnest($1::text[], $2::int[]) AS e(case_id, notes)
      WHERE n.case_id = e.case_id AND (e.notes IS NULL OR n.ordinal < e.notes)`,
    [
      erasures.map((erasure) => erasure.caseId),
      erasures.map((erasure) => erasure.notes),
      CASE_ERASURE.erasedText,
    ],
  );
}

const NOTES_ONLY: ReadonlySet<string> = NOTES_ONLY_EVENTS;

/** The document JSON of states this process wrote or read: the next write compares with it. */
const documents = new WeakMap<Case, string>();

/**
 * The case_view and case_notes rows a command writes when its events (of `types`) made `next` of
 * `previous`, for its append (the position is the append's): the document only if it changed,
 * the notes added. Events that change only the notes leave the document as this process last
 * wrote or read it, without serialising it again.
 */
export function caseViewWrites(previous: Case | null, next: Case, types: readonly string[]): ReadModelRows[] {
  const known = previous && documents.get(previous);
  const notesOnly = typeof known === 'string' && types.every((type) => NOTES_ONLY.has(type));
  const document = notesOnly ? known : JSON.stringify(rowDocument(next));
  documents.set(next, document);
  const before = previous && (known ?? JSON.stringify(rowDocument(previous)));
  return [
    { model: CASE_VIEW, rows: [caseViewRow(next, null, document === before ? 'null' : document)] },
    { model: CASE_NOTES, rows: noteRows(next, previous ? notesSize(previous).count : 0) },
  ];
}

/**
 * The case list/detail read model (CASE_VIEW, CASE_NOTES): one case_view row per case, and one
 * case_notes row per note, so the list carries counts. Commands write it in their append's
 * statement (caseViewWrites), so a command's answer and every later read already show the change;
 * a rebuild and a restore write the same rows in bulk (rebuild/read-model-rows.ts).
 * The case_view row also serves commands as the case's snapshot: the folded state and its
 * version, with the notes' count and size for the notes bound (Case.earlierNotes).
 */
@Injectable()
export class CaseViewProjection {
  constructor(private readonly dataSource: DataSource) {}

  /** Writes `state`'s rows; `previous`: the state the rows held before, when known (fewer notes to write). */
  async apply(
    state: Case,
    lastPosition: string,
    runner: QueryRunner,
    previous?: Case | null,
    tables = LIVE,
  ): Promise<void> {
    const written = previous ? notesSize(previous).count : 0;
    await writeTogether(runner, [
      { model: CASE_VIEW, rows: [caseViewRow(state, lastPosition)], table: tables.caseView },
      { model: CASE_NOTES, rows: noteRows(state, written), table: tables.caseNotes },
    ]);
  }

  /** The case's snapshot (its case_view row as a state, notes not read), or null when it has none. */
  async snapshot(caseId: string, db: DataSource | QueryRunner = this.dataSource): Promise<Case | null> {
    const [row]: CaseViewRow[] = await db.query(
      `SELECT ${CASE_VIEW_ROW_COLUMNS} FROM case_view WHERE id = $1`,
      [caseId],
    );
    return row ? CaseViewProjection.toCase(row) : null;
  }

  /** The whole case: `state` with the notes its snapshot did not read. */
  async withNotes(state: Case, db: DataSource | QueryRunner = this.dataSource): Promise<Case> {
    const { earlierNotes, ...whole } = state;
    if (!earlierNotes) return state;
    const earlier = await readNotes(db, state.id, earlierNotes.count);
    const result = { ...whole, notes: [...earlier, ...state.notes] };
    const document = documents.get(state);
    if (document) documents.set(result, document);
    return result;
  }

  /**
   * `state` as its case_view row holds it: its notes by count and size (Case.earlierNotes), as
   * snapshot() reads it, for a command to decide on without the notes. The row's document written
   * for `state` stays known for it, so the next write compares with it instead of serialising it.
   */
  asSnapshot(state: Case): Case {
    const snapshot: Case = { ...state, notes: [], earlierNotes: notesSize(state) };
    const document = documents.get(state);
    if (document) documents.set(snapshot, document);
    return snapshot;
  }

  /** The case as its row holds it: the state folding its stream gives, but for unread notes. */
  static toCase(row: CaseViewRow): Case {
    const state = { ...row.data, notes: [], version: row.version } as Case;
    if (row.note_count) state.earlierNotes = { count: row.note_count, textLength: row.notes_text_length };
    if (row.deleted) state.deleted = true;
    return state;
  }
}

/** A case's first `count` notes (all of them when undefined), in order. */
export async function readNotes(
  db: DataSource | QueryRunner,
  caseId: string,
  count?: number,
): Promise<Note[]> {
  const [row]: { notes: Note[] }[] = await db.query(
    `SELECT coalesce(json_agg(note ORDER BY ordinal), '[]') AS notes
       FROM case_notes WHERE case_id = $1 AND ordinal < $2`,
    [caseId, count ?? 2 ** 31 - 1],
  );
  return row.notes;
}
