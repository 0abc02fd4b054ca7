import {
  CASE_EVENT_TYPES,
  evolveInPlace,
  evolveUser,
  leftStatus,
  notesSize,
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
import { userStateOf, type UserViewRow } from '../users/user-view.projection.js';
import {
  addStageMs,
  intervalRow,
  reportCaseRow,
  reportFields,
  reportFieldsDiffer,
  type StageMs,
} from '../reports/report-rows.projection.js';

import {
  writeReadModelRows,
  type Entry,
  type ReadModelTables,
  type PendingRows,
  caseIdRows,
  caseRow,
  noteRows,
  userRow,
} from './read-model-rows.js';

const CASE_PREFIX = 'case-';

const USER_PREFIX = 'user-';

const CASE_TYPES = new Set<string>(CASE_EVENT_TYPES);

const USER_TYPES = new Set(['UserCreated', 'UserUpdated', 'UserDeleted', 'UserImported']);

const STREAMS_PER_READ = 5000;

/**
 * A case's report_cases row as the replay holds it: written only when an append changed it (as
 * a command's append writes it), with the version and position of that append's last event.
 */
interface ReportMark {
  /** The transaction of the last append that changed the row. */
  transactionId: string;
  version: number;
  position: string;
  /** The stage times added since the row was last written. */
  stageAdded: StageMs;
  dirty: boolean;
}

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
  /** Cases erased since the last write, with how many notes each had then. */
  private readonly notesErased = new Map<string, number>();
  /** The report row of each case in `cases`, and their pending stage rows. */
  private readonly reports = new Map<string, ReportMark>();
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
        this.reports.delete(key);
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
      // Read before evolveInPlace changes the state: the status this event may leave, the report's values.
      const before = entry && { status: entry.state.status, statusEnteredAt: entry.state.statusEnteredAt };
      const reported = entry ? reportFields(entry.state) : null;
      const state = evolveInPlace(entry?.state ?? null, caseEvent);
      const left = leftStatus(before ?? null, caseEvent, state);
      const mark =
        this.reports.get(stream.key) ??
        this.reports
          .set(stream.key, { transactionId: '', version: 0, position: '', stageAdded: null, dirty: false })
          .get(stream.key)!;
      if (left) {
        this.intervals.push(intervalRow({ ...left, caseId: state.id, version: state.version }));
        mark.stageAdded = addStageMs(mark.stageAdded, [left]);
      }
      if (event.type === 'CaseImported') {
        // A restored case counts with what it carries: its earlier report rows go.
        this.intervals = this.intervals.filter((row) => row[0] !== state.id);
        this.intervalsReplaced.add(state.id);
        mark.stageAdded = null;
      }
      if (event.type === 'CaseImported' || left || reportFieldsDiffer(reported, reportFields(state)))
        mark.transactionId = event.transactionId;
      if (mark.transactionId === event.transactionId) {
        mark.version = state.version;
        mark.position = event.position;
        mark.dirty = true;
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
      // Its notes' rows written before the erasure still hold their texts.
      if (event.type === 'CaseErased') this.notesErased.set(state.id, notesSize(state).count);
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
    }
    if (userKeys.size) {
      const rows: UserViewRow[] = await db.query(
        `SELECT username_key, username, role, email, activation_sound_enabled, notify_push, notify_email,
                password_hash, version, deleted, last_position::text
           FROM ${this.tables.userView} WHERE username_key = ANY($1::text[])`,
        [[...userKeys]],
      );
      for (const row of rows) {
        const state = userStateOf(row);
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
      notesErased: [...this.notesErased].map(([caseId, notes]) => ({ caseId, notes })),
      users: [...this.dirtyUsers].map((key) => userRow(this.users.get(key)!)),
      caseIds: [...this.newCaseIds].flatMap(caseIdRows),
      reports: {
        cases: dirty.flatMap((entry) => {
          const mark = this.reports.get(entry.state.id);
          if (!mark?.dirty) return [];
          const row = reportCaseRow(entry.state, mark.stageAdded, mark.position, mark.version);
          mark.stageAdded = null;
          mark.dirty = false;
          return [row];
        }),
        intervals: this.intervals,
        intervalsReplaced: [...this.intervalsReplaced],
      },
    };
    this.intervals = [];
    this.intervalsReplaced.clear();
    this.notesErased.clear();
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
