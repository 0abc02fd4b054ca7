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

type Decided = { state: Case; events: RecordedEvent[] };

/**
 * The one path of every case command: load the case, decide with the domain rules, append with
 * the version read (optimistic concurrency) and project. A concurrent writer makes the append
 * fail; without an expected version the command is decided again against the newer state, so
 * parallel notes all land and nothing is decided on stale data.
 *
 * Two ways to load and write, one result:
 * - quick (first attempt on an existing case): the case's case_view row is its snapshot (the
 *   folded state and its version), and one statement appends the events and writes the new row.
 *   Two round trips and no transaction held open, whatever the length of the stream.
 * - queued (new cases, creations with side writes, every retry after a conflict): in one
 *   transaction, wait for the stream's lock, fold the whole stream, append, project. Writers of a
 *   busy case queue here instead of losing round after round.
 */
@Injectable()
export class CaseCommandService {
  private readonly wakeups: ListenerWakeups;

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
            ? await this.decideFromSnapshot(caseId, command, actor, options)
            : undefined;
        const { state, events } =
          quick ??
          (await withTransaction(this.dataSource, (runner) =>
            this.decideAndAppend(caseId, command, actor, options, runner),
          ));
        if (events.length) this.emitter.emit(EVENTS_COMMITTED, { events } satisfies EventsCommitted);
        return state;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        const userSawAVersion = options.expectedVersion !== undefined || hasFromStatus(command);
        if (userSawAVersion || attempt >= MAX_ATTEMPTS) {
          throw new DomainRejection({ kind: 'conflict', message: CASE_TEXTS.concurrentChange });
        }
      }
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
    const state = CaseViewProjection.toCase(row);
    const decision = this.decideOn(state, command, actor, options);
    if (!decision.length) return { state, events: [] };
    // What evolve sees of an event is what a reader of the stream will see: the stored JSON.
    const next = decision.reduce<Case>(
      (current, event) =>
        evolve(current, {
          type: event.type,
          data: JSON.parse(JSON.stringify(event.data ?? null)),
          actor,
          at: row.now,
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
        recordedAt: row.now,
        alongside: ({ param, lastPosition, appended }) =>
          this.projection.upsertSql(next, { param, lastPosition, when: appended }),
        wakeListeners: 'caller',
      },
    );
    this.wakeups.poke();
    return { state: next, events };
  }

  /** The events the command decides on `state`; throws the domain's rejection. */
  private decideOn(
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
    const decision = this.decideOn(state, command, actor, options);
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
