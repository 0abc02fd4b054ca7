import {
  CASE_EVENT_TYPES,
  evolveInPlace,
  evolveUser,
  leftStatus,
  notesSize,
  notifyOf,
  originFrom,
  type ReportOrigin,
  type Case,
  type UserEventData,
  type UserState,
} from '@alignerflow/domain';
import type { DataSource, QueryRunner } from 'typeorm';
import { toCaseEvent } from '../cases/case-events.js';
import {
  CASE_VIEW_ROW_COLUMNS,
  CaseViewProjection,
  type CaseViewRow,
} from '../cases/projections/case-view.projection.js';
import type { EventStore, RecordedEvent } from '../event-store/event-store.js';
import {
  addStageMs,
  intervalRow,
  LIVE_REPORT_TABLES,
  reportCaseRow,
  type StageMs,
  writeReportRows,
  type PendingReportRows,
  type ReportTables,
} from '../reports/report-rows.projection.js';

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

const CASE_PREFIX = 'case-';
const USER_PREFIX = 'user-';
const CASE_TYPES = new Set<string>(CASE_EVENT_TYPES);
const USER_TYPES = new Set(['UserCreated', 'UserUpdated', 'UserDeleted', 'UserImported']);
const CASE_ID = /^CA-(\d{4})-(\d+)$/;
const STREAMS_PER_READ = 5000;

/**
 * Folds events into case_view, user_view and case_ids rows with the domain's own evolve and
 * evolveUser, in memory, and writes the changed rows in bulk: the same rows the commands' inline
 * projections (CaseViewProjection, UserViewProjection, the case_ids reservation) write one by one.
 *
 * Each stream is applied strictly in stream-version order. The commit-safe order of the whole log
 * is by transaction id, and a transaction that took its id early (a restore appends its marker
 * first) can hold a stream's next event while a later transaction committed the one before it;
 * such a gap is filled from the stream itself, whose earlier events are all committed, and the
 * events already applied are skipped when the log reaches them.
 *
 * States live in a cache. While `authoritative`, every row of the target tables was written from
 * this cache, so a stream missing from it is new; otherwise (after a resume, or once the cache was
 * dropped to bound memory) missing states are loaded back from the target tables, which hold
 * exactly what was flushed.
 */
export class ReadModelReplay {
  private readonly cases = new Map<string, Entry<Case>>();
  private readonly users = new Map<string, Entry<UserState>>();
  private readonly dirtyCases = new Set<string>();
  private readonly dirtyUsers = new Set<string>();
  private readonly newCaseIds = new Set<string>();
  /** The reports' origin of each case in `cases` (reportCaseRow), and their pending stage rows. */
  private readonly origins = new Map<string, ReportOrigin | null>();
  private readonly stageMs = new Map<string, StageMs>();
  private intervals: unknown[][] = [];
  private readonly intervalsReplaced = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    readonly tables: ReadModelTables,
    private authoritative: boolean,
  ) {}

  get cachedStates(): number {
    return this.cases.size + this.users.size;
  }

  get pendingRows(): number {
    return this.dirtyCases.size + this.dirtyUsers.size + this.newCaseIds.size + this.intervals.length;
  }

  /**
   * Forgets the states that are written; later events of those streams load them from the tables.
   * Only while no write is under way: a state taken for writing must stay until it is in the table.
   */
  dropCache(): void {
    for (const key of this.cases.keys())
      if (!this.dirtyCases.has(key)) {
        this.cases.delete(key);
        this.origins.delete(key);
        this.stageMs.delete(key);
      }
    for (const key of this.users.keys()) if (!this.dirtyUsers.has(key)) this.users.delete(key);
    this.authoritative = false;
  }

  /** Applies events read from the log in commit-safe order; `runner`: the transaction to read in. */
  async applyLogEvents(events: RecordedEvent[], runner?: QueryRunner): Promise<void> {
    if (!this.authoritative)
      await this.loadStates(
        events.map((event) => event.streamId),
        runner,
      );
    for (const event of events) {
      const stream = streamOf(event.streamId);
      if (!stream) continue;
      const applied = this.versionOf(stream.kind, stream.key);
      if (event.version <= applied) continue; // applied already, when a gap was filled
      if (event.version > applied + 1) {
        for (const missing of await this.store.readStream(event.streamId, runner)) {
          if (missing.version > applied && missing.version < event.version) this.apply(stream, missing);
        }
      }
      this.apply(stream, event);
    }
  }

  /**
   * Brings the given streams up to date from the streams themselves (the catch-up before the
   * swap). Safe with or without the commit-safe order: the committed events of one stream are
   * always a gap-free prefix of it, as each append waits for the version before it.
   */
  async applyStreams(streamIds: string[], runner?: QueryRunner): Promise<void> {
    const known = streamIds.filter((streamId) => streamOf(streamId));
    // A chunk of streams per read: one query each, however many streams a long transaction
    // elsewhere on the server kept from the commit-safe reads.
    for (let start = 0; start < known.length; start += STREAMS_PER_READ) {
      const chunk = known.slice(start, start + STREAMS_PER_READ);
      await this.loadStates(chunk, runner);
      const streams = chunk.map((streamId) => {
        const stream = streamOf(streamId)!;
        return { streamId, version: this.versionOf(stream.kind, stream.key) };
      });
      for (const event of await this.store.readStreamsAfter(streams, runner)) {
        this.apply(streamOf(event.streamId)!, event);
      }
    }
  }

  private versionOf(kind: 'case' | 'user', key: string): number {
    return (kind === 'case' ? this.cases.get(key) : this.users.get(key))?.state.version ?? 0;
  }

  /**
   * The cached entry and its state are updated in place (evolveInPlace: the cache is the states'
   * only holder; rows are serialised when taken): one look-up and no copies per event.
   */
  private apply(stream: { kind: 'case' | 'user'; key: string }, event: RecordedEvent): void {
    if (stream.kind === 'case') {
      if (!CASE_TYPES.has(event.type)) throw unknownEvent(event);
      const entry = this.cases.get(stream.key);
      const caseEvent = toCaseEvent(event);
      // Read before evolveInPlace changes the state: the status this event may leave.
      const before = entry && { status: entry.state.status, statusEnteredAt: entry.state.statusEnteredAt };
      const state = evolveInPlace(entry?.state ?? null, caseEvent);
      const left = leftStatus(before ?? null, caseEvent, state);
      if (left) {
        this.intervals.push(intervalRow({ ...left, caseId: state.id, version: state.version }));
        this.stageMs.set(stream.key, addStageMs(this.stageMs.get(stream.key) ?? null, [left]));
      }
      const origin = originFrom(event);
      if (origin !== undefined) this.origins.set(stream.key, origin);
      if (event.type === 'CaseImported') {
        // A restored case counts with what it carries: its earlier stage rows go.
        this.intervals = this.intervals.filter((row) => row[0] !== state.id);
        this.intervalsReplaced.add(state.id);
        this.stageMs.set(stream.key, null);
      }
      if (entry) {
        entry.state = state;
        entry.position = event.position;
        if (event.type === 'CaseImported') {
          entry.notesWritten = 0;
          entry.notesReplaced = true;
        }
      } else {
        this.cases.set(stream.key, { state, position: event.position, notesWritten: 0 });
      }
      this.dirtyCases.add(stream.key);
      if (event.type === 'CaseCreated' || event.type === 'CaseImported') this.newCaseIds.add(state.id);
    } else {
      if (!USER_TYPES.has(event.type)) throw unknownEvent(event);
      // As UserCommandService folds a stream: the recorded event is the domain's { type, data }.
      const state = evolveUser(this.users.get(stream.key)?.state ?? null, event as unknown as UserEventData);
      this.users.set(stream.key, { state, position: event.position });
      this.dirtyUsers.add(stream.key);
    }
  }

  /** Loads the states of streams the cache does not hold, from the target tables. */
  private async loadStates(streamIds: string[], runner?: QueryRunner): Promise<void> {
    if (this.authoritative) return;
    const db = runner ?? this.dataSource;
    const caseKeys = new Set<string>();
    const userKeys = new Set<string>();
    for (const streamId of streamIds) {
      const stream = streamOf(streamId);
      if (stream?.kind === 'case' && !this.cases.has(stream.key)) caseKeys.add(stream.key);
      if (stream?.kind === 'user' && !this.users.has(stream.key)) userKeys.add(stream.key);
    }
    if (caseKeys.size) {
      const rows: (CaseViewRow & { id: string; last_position: string })[] = await db.query(
        `SELECT id, ${CASE_VIEW_ROW_COLUMNS}, last_position::text FROM ${this.tables.caseView}
          WHERE id = ANY($1::text[])`,
        [[...caseKeys]],
      );
      for (const row of rows) {
        // The snapshot a command decides on: the notes stay in the table, counted.
        const state = CaseViewProjection.toCase(row);
        this.cases.set(row.id, { state, position: row.last_position, notesWritten: row.note_count });
      }
      const origins: OriginRow[] = await db.query(
        `SELECT id, origin_case_id, origin_kind, origin_reason_code, stage_ms::float8[] AS stage_ms
           FROM ${this.tables.reportCases}
          WHERE id = ANY($1::text[])`,
        [[...caseKeys]],
      );
      for (const row of origins) {
        this.origins.set(
          row.id,
          row.origin_case_id && row.origin_kind
            ? {
                caseId: row.origin_case_id,
                kind: row.origin_kind as ReportOrigin['kind'],
                reasonCode: row.origin_reason_code,
              }
            : null,
        );
        this.stageMs.set(row.id, row.stage_ms);
      }
    }
    if (userKeys.size) {
      const rows: UserRow[] = await db.query(
        `SELECT username_key, username, role, email, activation_sound_enabled, notify_push, notify_email,
                password_hash, version, deleted, last_position::text
           FROM ${this.tables.userView} WHERE username_key = ANY($1::text[])`,
        [[...userKeys]],
      );
      for (const row of rows) {
        const state: UserState = {
          username: row.username,
          role: row.role as UserState['role'],
          email: row.email,
          activationSoundEnabled: row.activation_sound_enabled,
          notify: { push: row.notify_push, email: row.notify_email },
          passwordHash: row.password_hash,
          deleted: row.deleted,
          version: row.version,
        };
        this.users.set(row.username_key, { state, position: row.last_position });
      }
    }
  }

  /**
   * Takes the changed rows out, serialised: later events may change the states again while these
   * rows are being written. Synchronous, so nothing changes in between.
   */
  takePending(): PendingRows {
    const dirty = [...this.dirtyCases].map((key) => this.cases.get(key)!);
    const pending: PendingRows = {
      cases: dirty.map(caseRow),
      notes: dirty.flatMap(noteRows),
      notesReplaced: dirty.filter((entry) => entry.notesReplaced).map((entry) => entry.state.id),
      users: [...this.dirtyUsers].map((key) => userRow(this.users.get(key)!)),
      caseIds: [...this.newCaseIds].flatMap(caseIdRows),
      reports: {
        cases: dirty.map((entry) =>
          reportCaseRow(
            entry.state,
            this.origins.get(entry.state.id) ?? null,
            this.stageMs.get(entry.state.id) ?? null,
            entry.position,
          ),
        ),
        intervals: this.intervals,
        intervalsReplaced: [...this.intervalsReplaced],
      },
    };
    this.intervals = [];
    this.intervalsReplaced.clear();
    for (const entry of dirty) {
      entry.notesWritten = notesSize(entry.state).count;
      entry.notesReplaced = false;
    }
    this.dirtyCases.clear();
    this.dirtyUsers.clear();
    this.newCaseIds.clear();
    return pending;
  }

  /** Takes the changed rows and writes them (the swap's catch-up). */
  flush(runner: QueryRunner): Promise<void> {
    return this.write(runner, this.takePending());
  }

  /** Writes rows taken with takePending (see writeReadModelRows). */
  write(runner: QueryRunner, pending: PendingRows): Promise<void> {
    return writeReadModelRows(runner, this.tables, pending);
  }
}

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
       ON CONFLICT (id) DO UPDATE SET data = excluded.data, status = excluded.status,
         assigned_doctor = excluded.assigned_doctor, on_hold = excluded.on_hold,
         delivery_date = excluded.delivery_date, status_entered_at = excluded.status_entered_at,
         created_date = excluded.created_date, version = excluded.version, deleted = excluded.deleted,
         last_position = excluded.last_position, note_count = excluded.note_count,
         notes_text_length = excluded.notes_text_length`,
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

interface OriginRow {
  id: string;
  origin_case_id: string | null;
  origin_kind: string | null;
  origin_reason_code: string | null;
  stage_ms: (number | null)[] | null;
}

/** Rows to one array per column. */
function columns(rows: unknown[][], width: number): unknown[][] {
  const result = Array.from({ length: width }, () => new Array<unknown>(rows.length));
  rows.forEach((row, index) => row.forEach((value, column) => (result[column][index] = value)));
  return result;
}

interface UserRow {
  username_key: string;
  username: string;
  role: string;
  email: string | null;
  activation_sound_enabled: boolean;
  notify_push: boolean;
  notify_email: boolean;
  password_hash: string;
  version: number;
  deleted: boolean;
  last_position: string;
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
function rowDocument({
  deleted: _deleted,
  notes: _notes,
  earlierNotes: _earlier,
  ...data
}: Case): Omit<Case, 'deleted' | 'notes' | 'earlierNotes'> {
  return data;
}

/** The columns UserViewProjection.apply writes for a state, in the order of the INSERT. */
function userRow({ state, position }: Entry<UserState>): unknown[] {
  return [
    state.username.toLowerCase(),
    state.username,
    state.role,
    state.email,
    state.activationSoundEnabled,
    state.passwordHash,
    state.version,
    state.deleted,
    position,
    notifyOf(state).push,
    notifyOf(state).email,
  ];
}

/** Case and user streams feed the read models; other streams (restore markers…) do not. */
function streamOf(streamId: string): { kind: 'case' | 'user'; key: string } | undefined {
  if (streamId.startsWith(CASE_PREFIX)) return { kind: 'case', key: streamId.slice(CASE_PREFIX.length) };
  if (streamId.startsWith(USER_PREFIX)) return { kind: 'user', key: streamId.slice(USER_PREFIX.length) };
  return undefined;
}

function unknownEvent(event: RecordedEvent): Error {
  return new Error(
    `Cannot replay ${event.type} (position ${event.position}) of stream ${event.streamId}: not an event of that stream.`,
  );
}
