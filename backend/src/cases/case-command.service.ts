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
} from '@alignerflow/domain';
import { DataSource, type QueryRunner } from 'typeorm';
import { DomainRejection } from '../common/domain-rejection.js';
import {
  EventStore,
  lockStream,
  withTransaction,
  WrongExpectedVersionError,
  type RecordedEvent,
} from '../event-store/event-store.js';
import { toCaseEvent } from './case-events.js';
import { CaseViewProjection } from './projections/case-view.projection.js';

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

/**
 * The one path of every case command: load the stream, decide with the domain rules, append
 * with the version read (optimistic concurrency) and project — all in one transaction. A
 * concurrent writer makes the append fail; without an expected version the command is decided
 * again against the newer state, so parallel notes all land and nothing is decided on stale data.
 */
@Injectable()
export class CaseCommandService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly projection: CaseViewProjection,
    private readonly emitter: EventEmitter2,
  ) {}

  async execute(caseId: string, command: CaseCommand, actor: Actor, options: CommandOptions): Promise<Case> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { state, events } = await withTransaction(this.dataSource, (runner) =>
          this.decideAndAppend(caseId, command, actor, options, runner),
        );
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

  private async decideAndAppend(
    caseId: string,
    command: CaseCommand,
    actor: Actor,
    options: CommandOptions,
    runner: QueryRunner,
  ): Promise<{ state: Case; events: RecordedEvent[] }> {
    const streamId = caseStreamId(caseId);
    await lockStream(runner, streamId);
    const history = await this.store.readStream(streamId, runner);
    const state = foldCase(history.map(toCaseEvent));
    // A case the caller may not see is "not found" (decide says so), never a stale version.
    const visible = state && canSeeCase(actor, state) ? state : null;
    if (visible && options.expectedVersion !== undefined && options.expectedVersion !== visible.version) {
      throw new DomainRejection({ kind: 'conflict', message: CASE_TEXTS.concurrentChange });
    }
    const decision = decide(state, command, actor, new Date().toISOString());
    if (!decision.ok) throw new DomainRejection(decision.rejection);
    if (!decision.events.length) return { state: state!, events: [] };
    await options.beforeAppend?.(runner);
    const appended = await this.store.append(
      streamId,
      state?.version ?? 0,
      decision.events,
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
