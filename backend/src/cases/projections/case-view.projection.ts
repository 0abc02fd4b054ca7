import { Injectable } from '@nestjs/common';
import { notesSize, type Case, type Note } from '@alignerflow/domain';
import { DataSource, type QueryRunner } from 'typeorm';

/** The row of one case: the Case without its notes (rows of case_notes) and `deleted`. */
export interface CaseViewRow {
  data: Omit<Case, 'deleted' | 'notes' | 'earlierNotes'>;
  version: number;
  deleted: boolean;
  note_count: number;
  notes_text_length: number;
}

/** The columns of case_view that make a CaseViewRow. */
export const CASE_VIEW_ROW_COLUMNS = 'data, version, deleted, note_count, notes_text_length';

/** SQL: a case_view row written again replaces every column (the projection's and the rebuild's). */
export const CASE_VIEW_UPSERT = `ON CONFLICT (id) DO UPDATE SET data = excluded.data, status = excluded.status,
  assigned_doctor = excluded.assigned_doctor, on_hold = excluded.on_hold,
  delivery_date = excluded.delivery_date, status_entered_at = excluded.status_entered_at,
  created_date = excluded.created_date, version = excluded.version, deleted = excluded.deleted,
  last_position = excluded.last_position, note_count = excluded.note_count,
  notes_text_length = excluded.notes_text_length`;

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

/**
 * The case list/detail read model: one case_view row per case, and one case_notes row per note,
 * so a note inserts a small row instead of rewriting the case, and the list carries counts.
 * Commands apply it in their own transaction (or statement), so a command's answer and every
 * later read already show the change; a rebuild writes the same rows (read-model-replay.ts).
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
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const writes = this.upsertSql(
      state,
      { param, lastPosition: param(lastPosition), when: 'true' },
      previous,
      tables,
    );
    const ctes = writes.map((sql, index) => `w${index} AS (${sql})`).join(', ');
    await runner.query(`WITH ${ctes} SELECT 1`, params);
  }

  /**
   * The writes of `state` as SQL, one data-modifying CTE body each, for a statement that also does
   * other work (the event store's append). `when` is an SQL condition: nothing is written unless it
   * holds. The notes written are those `state` has beyond `previous` (the state it evolved from);
   * without `previous`, every note `state` holds.
   */
  upsertSql(
    state: Case,
    sql: { param: (value: unknown) => string; lastPosition: string; when: string },
    previous?: Case | null,
    tables = LIVE,
  ): string[] {
    const { deleted = false, notes, earlierNotes, ...data } = state;
    const size = notesSize(state);
    const p = sql.param;
    const writes = [
      `INSERT INTO ${tables.caseView} (id, data, status, assigned_doctor, on_hold, delivery_date, status_entered_at,
                             created_date, version, deleted, last_position, note_count, notes_text_length)
       SELECT ${p(state.id)}, ${p(JSON.stringify(data))}::jsonb, ${p(state.status)}, ${p(state.assignedDoctorUsername?.toLowerCase() ?? null)},
              ${p(state.onHold)}::boolean, ${p(state.deliveryDate)}::date, ${p(state.statusEnteredAt)}::timestamptz,
              ${p(state.createdDate)}::timestamptz, ${p(state.version)}::int, ${p(deleted)}::boolean, ${sql.lastPosition}::bigint,
              ${p(size.count)}::int, ${p(size.textLength)}::int
        WHERE ${sql.when}
       ${CASE_VIEW_UPSERT}`,
    ];
    const base = earlierNotes?.count ?? 0;
    const from = Math.max(previous ? notesSize(previous).count : 0, base);
    const added = notes.slice(from - base);
    if (added.length) {
      // JSON never holds a raw newline: the notes go as one text of JSON lines.
      writes.push(
        `INSERT INTO ${tables.caseNotes} (case_id, ordinal, note)
         SELECT ${p(state.id)}, ${p(from)}::int + n.i::int - 1, n.note::jsonb
           FROM unnest(string_to_array(${p(added.map((note) => JSON.stringify(note)).join('\n'))}::text, E'\\n'))
                WITH ORDINALITY AS n(note, i)
          WHERE ${sql.when}
         ON CONFLICT (case_id, ordinal) DO UPDATE SET note = excluded.note`,
      );
    }
    return writes;
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
    return { ...whole, notes: [...earlier, ...state.notes] };
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
