import { Injectable } from '@nestjs/common';
import {
  alertsFor,
  canSeeCase,
  CASE_EVENT_TYPES,
  isInAudience,
  sameUsername,
  type Actor,
  type Alert,
  type CaseSummary,
  type LiveAlert,
  type User,
  RESTORE_MARKER,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { toCaseEvent } from '../cases/case-events.js';
import { CasesQueries } from '../cases/cases.queries.js';
import { CASE_SUMMARY_SQL } from '../cases/projections/case-view.projection.js';
import { EventStore, type Checkpoint, type RecordedEvent } from '../event-store/event-store.js';
import { UsersQueries, withoutSecrets } from '../users/users.queries.js';
import { compareKeys, messageFrame } from './sse-frames.js';

export type LiveEventName =
  | 'case_created'
  | 'case_updated'
  | 'case_deleted'
  | 'cases_refresh'
  | 'users_refresh'
  | 'manager_alert'
  | 'doctor_alert';

/**
 * A message ready to go out. `key` is the log entry it stands for (its `id:` is key.position):
 * every change of the log up to that entry that concerns the message is in it, so a client that
 * saw it may resume right after it.
 */
export interface LiveMessage {
  key: Checkpoint;
  event: LiveEventName;
  /**
   * The whole SSE frame for this viewer, or null when the viewer may not see it. Encoded once
   * per audience and shared by every stream it goes to: a fan-out to thousands of streams then
   * writes the same bytes instead of serialising and encoding per stream.
   */
  frameFor(viewer: Actor): Buffer | null;
  /** For case messages: the case and the version of the state carried. */
  state?: { caseId: string; version: number };
}

/** Events read from the log in commit-safe order, and where the next read starts. */
export interface LogSegment {
  events: RecordedEvent[];
  /** Where the next read starts: the last event read, or the end of a restore's transaction. */
  end: Checkpoint | null;
  /** Whether more may follow right away (a full batch, or a skipped restore transaction). */
  more: boolean;
  /** A restore marker ends `events`; the rest of its transaction is skipped up to `end`. */
  restore?: RecordedEvent;
}

interface CaseRow {
  /** The summary GET /cases carries: a case's notes never travel on the live stream. */
  case: CaseSummary;
  deleted: boolean;
}

const CASE_TYPES = new Set<string>(CASE_EVENT_TYPES);
/** Refreshes kept per position: the staff's and this many doctors'; past it, built per client. */
const MAX_REFRESH_SCOPES = 1_000;
const CASE_STREAM_PREFIX = 'case-';

/**
 * Reads the event log for the live stream and turns events into messages carrying the current
 * read-model state. Projections run inside the command's transaction, so the read model already
 * holds every event the commit-safe read returns: a message never talks about unreadable state.
 */
@Injectable()
export class LiveLog {
  private refreshes: { at: Checkpoint; frames: Map<string, Promise<Buffer>> } | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly cases: CasesQueries,
    private readonly users: UsersQueries,
  ) {}

  /** The last event a commit-safe reader can see now (null: nothing yet). */
  async end(): Promise<Checkpoint | null> {
    const rows: { transaction_id: string; position: string }[] = await this.dataSource.query(
      `SELECT transaction_id::text, global_position::text AS position FROM events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.transaction_id DESC, events.global_position DESC
        LIMIT 1`,
    );
    return rows[0] ? { transactionId: rows[0].transaction_id, position: rows[0].position } : null;
  }

  /**
   * Whether committed events lie past `after` that a commit-safe read did not return yet: held
   * back because an older transaction somewhere on the server is still running.
   */
  async hasUnread(after: Checkpoint | null): Promise<boolean> {
    const [row]: { unread: boolean }[] = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM events WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)) AS unread`,
      [after?.transactionId ?? '0', after?.position ?? '0'],
    );
    return row.unread;
  }

  /** While `predicate` holds, this process's commits are kept for `read` (EventStore.ownCommits). */
  keepOwnCommitsWhile(predicate: () => boolean): void {
    this.store.ownCommits.keepWhile(predicate);
  }

  /**
   * The next segment in commit-safe order. This process's own recent commits are not read back:
   * the event store fills them from memory (EventStore.readAll, `ownFromMemory`), in their place.
   */
  async read(after: Checkpoint | null, limit: number): Promise<LogSegment> {
    const events = await this.store.readAll(after, limit, { ownFromMemory: true });
    const markerAt = events.findIndex((event) => event.type === RESTORE_MARKER);
    if (markerAt < 0) {
      return {
        events,
        end: events.length ? keyOf(events[events.length - 1]) : after,
        more: events.length === limit,
      };
    }
    // A restore brings in a whole lab at once: one cases_refresh and one users_refresh tell it
    // better than thousands of case_created. Its transaction has committed, so it is complete.
    const marker = events[markerAt];
    const [last]: { position: string }[] = await this.dataSource.query(
      `SELECT global_position::text AS position FROM events WHERE transaction_id = $1::xid8
        ORDER BY global_position DESC LIMIT 1`,
      [marker.transactionId],
    );
    return {
      events: events.slice(0, markerAt + 1),
      end: { transactionId: marker.transactionId, position: last.position },
      more: true,
      restore: marker,
    };
  }

  /**
   * The messages of a segment, in commit-safe order. Several events of one case collapse into one
   * message with the latest state, placed at (and numbered by) the case's last event in the
   * segment; alerts keep the place of their own event; all user events make one users_refresh.
   */
  async build(segment: LogSegment): Promise<LiveMessage[]> {
    const { events, restore } = segment;
    const lastOfCase = new Map<string, number>();
    const created = new Set<string>();
    let lastUserEvent = -1;
    events.forEach((event, index) => {
      const caseId = caseIdOf(event);
      if (caseId !== undefined) {
        lastOfCase.set(caseId, index);
        if (event.type === 'CaseCreated' || (event.type === 'CaseImported' && event.version === 1))
          created.add(caseId);
      } else if (isUserEvent(event)) {
        lastUserEvent = index;
      }
    });

    const [rows, users, refresh] = await Promise.all([
      this.loadCases([...lastOfCase.keys()]),
      lastUserEvent >= 0 || restore ? this.loadUsers() : undefined,
      restore ? this.cases.list({ username: 'live-stream', role: 'Manager' }) : undefined,
    ]);

    const messages: LiveMessage[] = [];
    events.forEach((event, index) => {
      const key = keyOf(event);
      const caseId = caseIdOf(event);
      if (caseId !== undefined) {
        const row = rows.get(caseId);
        if (!row) return; // Projected in the same transaction; absent only mid-rebuild.
        if (lastOfCase.get(caseId) === index) messages.push(caseMessage(key, row, created.has(caseId)));
        if (!row.deleted) {
          for (const alert of alertsFor(toCaseEvent(event), row.case))
            messages.push(alertMessage(key, alert));
        }
      } else if (index === lastUserEvent) {
        messages.push(usersMessage(key, users!));
      }
    });
    if (restore) {
      // The refresh goes out first, numbered by the marker: a client that got only it and then
      // reconnects is sent the import events one by one — more than needed, nothing missed.
      messages.push(casesRefreshMessage(keyOf(restore), refresh!));
      messages.push(usersMessage(segment.end!, users!));
    }
    return messages;
  }

  /**
   * A full refresh (cases_refresh, then users_refresh) for a viewer whose Last-Event-ID is not
   * in the recent window, numbered by `at`, the tailer's position when the viewer registered.
   * Read once per visibility scope and position and kept as bytes: every client reconnecting
   * while the tailer stays at `at` gets the same frames, so a reconnect storm costs one read of
   * the read models, never a read of the log. The lists are read after the tailer reached `at`,
   * so they hold every change up to it.
   */
  refresh(viewer: Actor, at: Checkpoint): Promise<Buffer> {
    if (!this.refreshes || compareKeys(this.refreshes.at, at) !== 0)
      this.refreshes = { at, frames: new Map() };
    const frames = this.refreshes.frames;
    const scope = isDoctor(viewer) ? `d:${viewer.username.toLowerCase()}` : 'staff';
    const cached = frames.get(scope);
    if (cached) return cached;
    const built = this.refreshFrames(viewer, at);
    if (frames.size < MAX_REFRESH_SCOPES) {
      frames.set(scope, built);
      built.catch(() => frames.get(scope) === built && frames.delete(scope));
    }
    return built;
  }

  private async refreshFrames(viewer: Actor, at: Checkpoint): Promise<Buffer> {
    const [list, users] = await Promise.all([
      // A doctor's list is the doctor's own query (GET /cases for them), not the whole lab's.
      this.cases.list(isDoctor(viewer) ? viewer : { username: 'live-stream', role: 'Manager' }),
      this.loadUsers(),
    ]);
    const cases = casesRefreshMessage(at, list).frameFor(viewer);
    return Buffer.concat([cases ?? Buffer.alloc(0), usersMessage(at, users).frameFor(viewer)!]);
  }

  private async loadCases(ids: string[]): Promise<Map<string, CaseRow>> {
    if (!ids.length) return new Map();
    const rows: { id: string; data: CaseSummary; deleted: boolean }[] = await this.dataSource.query(
      `SELECT v.id, ${CASE_SUMMARY_SQL} AS data, v.deleted FROM case_view v WHERE v.id = ANY($1::text[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, { case: row.data, deleted: row.deleted }]));
  }

  private async loadUsers(): Promise<User[]> {
    return (await this.users.list()).map(withoutSecrets);
  }
}

function keyOf(event: RecordedEvent): Checkpoint {
  return { transactionId: event.transactionId, position: event.position };
}

function caseIdOf(event: RecordedEvent): string | undefined {
  return CASE_TYPES.has(event.type) && event.streamId.startsWith(CASE_STREAM_PREFIX)
    ? event.streamId.slice(CASE_STREAM_PREFIX.length)
    : undefined;
}

function isUserEvent(event: RecordedEvent): boolean {
  return event.type.startsWith('User') && event.streamId.startsWith('user-');
}

function isDoctor(viewer: Actor): boolean {
  return viewer.role === 'Doctor';
}

/** One frame for every viewer allowed to see it, serialised and encoded once, on first use. */
function sharedFrame(id: string, event: LiveEventName, data: unknown): () => Buffer {
  let frame: Buffer | undefined;
  return () => (frame ??= encodedFrame(id, event, data));
}

function encodedFrame(id: string, event: LiveEventName, data: unknown): Buffer {
  return Buffer.from(messageFrame(id, event, data));
}

function caseMessage(key: Checkpoint, row: CaseRow, created: boolean): LiveMessage {
  const event: LiveEventName = row.deleted ? 'case_deleted' : created ? 'case_created' : 'case_updated';
  const frame = sharedFrame(key.position, event, row.deleted ? { id: row.case.id } : row.case);
  // A doctor hears of a deletion of a case that was theirs: the row keeps its assigned doctor.
  const assigned = { assignedDoctorUsername: row.case.assignedDoctorUsername, deleted: false };
  return {
    key,
    event,
    frameFor: (viewer) => (canSeeCase(viewer, assigned) ? frame() : null),
    state: { caseId: row.case.id, version: row.case.version },
  };
}

function alertMessage(key: Checkpoint, alert: Alert): LiveMessage {
  const data: LiveAlert =
    alert.kind === 'doctor_alert'
      ? { title: alert.title, body: alert.body, caseId: alert.caseId, doctor: alert.doctor }
      : alert.risk
        ? { title: alert.title, body: alert.body, caseId: alert.caseId, kind: alert.risk }
        : { title: alert.title, body: alert.body, caseId: alert.caseId };
  const frame = sharedFrame(key.position, alert.kind, data);
  return {
    key,
    event: alert.kind,
    frameFor: (viewer) => (isInAudience(alert.audience, viewer) ? frame() : null),
  };
}

function usersMessage(key: Checkpoint, users: User[]): LiveMessage {
  const all = sharedFrame(key.position, 'users_refresh', users);
  return {
    key,
    event: 'users_refresh',
    // A doctor may read only their own user (GET /users is staff-only).
    frameFor: (viewer) =>
      isDoctor(viewer)
        ? encodedFrame(
            key.position,
            'users_refresh',
            users.filter((user) => sameUsername(user.username, viewer.username)),
          )
        : all(),
  };
}

function casesRefreshMessage(key: Checkpoint, list: CaseSummary[]): LiveMessage {
  const all = sharedFrame(key.position, 'cases_refresh', list);
  return {
    key,
    event: 'cases_refresh',
    frameFor: (viewer) =>
      isDoctor(viewer)
        ? encodedFrame(
            key.position,
            'cases_refresh',
            list.filter((item) => canSeeCase(viewer, item)),
          )
        : all(),
  };
}
