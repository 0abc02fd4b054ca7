import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  CASE_TEXTS,
  canSeeCase,
  caseStreamId,
  decide,
  evolve,
  foldCase,
  type Actor,
  type Case,
  type CaseCommand,
  type CaseEvent,
} from '@alignerflow/domain';
import { DataSource, type QueryRunner } from 'typeorm';
import { DomainRejection } from '../common/domain-rejection.js';
import {
  EventStore,
  ListenerWakeups,
  lockStream,
  withTransaction,
  WrongExpectedVersionError,
  type NewEvent,
  type RecordedEvent,
} from '../event-store/event-store.js';
import { toCaseEvent } from './case-events.js';
import { CaseViewProjection, type CaseViewRow } from './projections/case-view.projection.js';

export interface CommandOptions {
  /** The stream version the user saw; a mismatch is a 409 instead of a re-decision. */
  expectedVersion?: number;
  correlationId: string;
  /** Runs inside the command's transaction after the decision, before the append. */
  beforeAppend?: (runner: QueryRunner) => Promise<void>;
}

export const EVENTS_COMMITTED = 'events.committed';
export interface EventsCommitted {
  events: RecordedEvent[];
}

const MAX_ATTEMPTS = 8;
/** Cases whose last known state this process keeps (most recently written first). */
const SNAPSHOT_CACHE_SIZE = 1000;

type Decided = { state: Case; events: RecordedEvent[] };
/** A case's folded state, and the time its new events get (ISO 8601). */
type Snapshot = { state: Case; now: string };

/**
 * The one path of every case command: load the case, decide with the domain rules, append with
 * the version read (optimistic concurrency) and project. A concurrent writer makes the append
 * fail; without an expected version the command is decided again against the newer state, so
 * parallel notes all land and nothing is decided on stale data.
 *
 * Three ways to load and write, one result:
 * - remembered (first attempt on a case this process wrote last): the state this process left it
 *   in, and one statement appends the events and writes the new case_view row. One round trip.
 *   The append's version check proves the memory current; anything else it leads to (a conflict,
 *   a rejection, a decision to do nothing: all possibly due to another process's newer write) is
 *   decided again on the row, so nothing is ever answered from a stale memory.
 * - quick (an existing case): the case's case_view row is its snapshot (the folded state and its
 *   version), then the same statement. Two round trips and no transaction held open, whatever the
 *   length of the stream.
 * - queued (new cases, creations with side writes, every retry after a conflict): in one
 *   transaction, wait for the stream's lock, fold the whole stream, append, project. Writers of a
 *   busy case queue here instead of losing round after round.
 */
@Injectable()
export class CaseCommandService {
  private readonly wakeups: ListenerWakeups;
  /** The state each recently written case was left in, by case id; see decideFromMemory. */
  private readonly snapshots = new Map<string, Case>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly projection: CaseViewProjection,
    private readonly emitter: EventEmitter2,
  ) {
    this.wakeups = new ListenerWakeups(dataSource);
  }

  async execute(caseId: string, command: CaseCommand, actor: Actor, options: CommandOptions): Promise<Case> {
    for (let attempt = 1; ; attempt++) {
      try {
        const quick =
          attempt === 1 && !options.beforeAppend
            ? ((await this.decideFromMemory(caseId, command, actor, options)) ??
              (await this.decideFromSnapshot(caseId, command, actor, options)))
            : undefined;
        const { state, events } =
          quick ??
          (await withTransaction(this.dataSource, (runner) =>
            this.decideAndAppend(caseId, command, actor, options, runner),
          ));
        if (events.length) {
          this.remember(state);
          this.emitter.emit(EVENTS_COMMITTED, { events } satisfies EventsCommitted);
        }
        return state;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        this.snapshots.delete(caseId);
        const userSawAVersion = options.expectedVersion !== undefined || hasFromStatus(command);
        if (userSawAVersion || attempt >= MAX_ATTEMPTS) {
          throw new DomainRejection({ kind: 'conflict', message: CASE_TEXTS.concurrentChange });
        }
      }
    }
  }

  /**
   * The remembered way; undefined unless this process's memory of the case led to an append.
   * Its clock is this process's (the other ways take the database's).
   */
  private async decideFromMemory(
    caseId: string,
    command: CaseCommand,
    actor: Actor,
    options: CommandOptions,
  ): Promise<Decided | undefined> {
    const state = this.snapshots.get(caseId);
    // A version the user saw that differs from ours may be the newer one: ask the row.
    if (!state || (options.expectedVersion !== undefined && options.expectedVersion !== state.version))
      return undefined;
    try {
      const decided = await this.decideOn(
        { state, now: new Date().toISOString() },
        caseId,
        command,
        actor,
        options,
      );
      if (decided.events.length) return decided;
    } catch (error) {
      if (!(error instanceof DomainRejection || error instanceof WrongExpectedVersionError)) throw error;
    }
    this.snapshots.delete(caseId);
    return undefined;
  }

  /** Keeps `state` as the case's last known state, dropping the least recently written beyond the limit. */
  private remember(state: Case): void {
    // Two commands of this process on one case may finish in either order: keep the newer.
    if ((this.snapshots.get(state.id)?.version ?? -1) > state.version) return;
    this.snapshots.delete(state.id);
    this.snapshots.set(state.id, state);
    if (this.snapshots.size > SNAPSHOT_CACHE_SIZE) {
      this.snapshots.delete(this.snapshots.keys().next().value!);
    }
  }

  /** The quick way; undefined when the case has no snapshot row (never created, or not projected). */
  private async decideFromSnapshot(
    caseId: string,
    command: CaseCommand,
    actor: Actor,
    options: CommandOptions,
  ): Promise<Decided | undefined> {
    // The event time comes from the database's clock, as now() gives the other way.
    const [row]: (CaseViewRow & { now: string })[] = await this.dataSource.query(
      `SELECT data, version, deleted,
              to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS now
         FROM case_view WHERE id = $1`,
      [caseId],
    );
    if (!row) return undefined;
    return this.decideOn(
      { state: CaseViewProjection.toCase(row), now: row.now },
      caseId,
      command,
      actor,
      options,
    );
  }

  /** Decides on a snapshot, and appends the events and the new case_view row in one statement. */
  private async decideOn(
    { state, now }: Snapshot,
    caseId: string,
    command: CaseCommand,
    actor: Actor,
    options: CommandOptions,
  ): Promise<Decided> {
    const decision = this.decide(state, command, actor, options);
    if (!decision.length) return { state, events: [] };
    // What evolve sees of an event is what a reader of the stream will see: the stored JSON.
    const next = decision.reduce<Case>(
      (current, event) =>
        evolve(current, {
          type: event.type,
          data: JSON.parse(JSON.stringify(event.data ?? null)),
          actor,
          at: now,
        } as CaseEvent),
      state,
    );
    const events = await this.store.append(
      caseStreamId(caseId),
      state.version,
      decision,
      { actor, correlationId: options.correlationId },
      undefined,
      {
        recordedAt: now,
        alongside: ({ param, lastPosition, appended }) =>
          this.projection.upsertSql(next, { param, lastPosition, when: appended }),
        wakeListeners: 'caller',
      },
    );
    this.wakeups.poke();
    return { state: next, events };
  }

  /** The events the command decides on `state`; throws the domain's rejection. */
  private decide(
    state: Case | null,
    command: CaseCommand,
    actor: Actor,
    options: CommandOptions,
  ): NewEvent[] {
    // A case the caller may not see is "not found" (decide says so), never a stale version.
    const visible = state && canSeeCase(actor, state) ? state : null;
    if (visible && options.expectedVersion !== undefined && options.expectedVersion !== visible.version) {
      throw new DomainRejection({ kind: 'conflict', message: CASE_TEXTS.concurrentChange });
    }
    const decision = decide(state, command, actor, new Date().toISOString());
    if (!decision.ok) throw new DomainRejection(decision.rejection);
    return decision.events;
  }

  private async decideAndAppend(
    caseId: string,
    command: CaseCommand,
    actor: Actor,
    options: CommandOptions,
    runner: QueryRunner,
  ): Promise<Decided> {
    const streamId = caseStreamId(caseId);
    await lockStream(runner, streamId);
    const history = await this.store.readStream(streamId, runner);
    const state = foldCase(history.map(toCaseEvent));
    const decision = this.decide(state, command, actor, options);
    if (!decision.length) return { state: state!, events: [] };
    await options.beforeAppend?.(runner);
    const appended = await this.store.append(
      streamId,
      state?.version ?? 0,
      decision,
      { actor, correlationId: options.correlationId },
      runner,
    );
    const next = appended.reduce<Case | null>(
      (current, event) => evolve(current, toCaseEvent(event)),
      state,
    )!;
    await this.projection.apply(next, appended[appended.length - 1].position, runner);
    return { state: next, events: appended };
  }
}

function hasFromStatus(command: CaseCommand): boolean {
  return command.type === 'AdvanceStage' && command.fromStatus !== undefined;
}
