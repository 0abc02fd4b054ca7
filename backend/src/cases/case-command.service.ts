import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  CASE_TEXTS,
  canSeeCase,
  caseStreamId,
  decide,
  evolve,
  followUpCreated,
  leftStatus,
  NOTES_REWRITING_EVENTS,
  type Actor,
  type Case,
  type CaseCommand,
  type CaseEvent,
  type CaseEventData,
  type Note,
  type ReorderInput,
} from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { DomainRejection } from '../common/domain-rejection.js';
import {
  EventStore,
  WrongExpectedVersionError,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
} from '../event-store/event-store.js';
import { APPEND_FLUSHED, GroupCommit } from '../event-store/group-commit.js';
import { EVENTS_COMMITTED, type EventsCommitted } from '../event-store/log-listener.js';
import { CaseViewProjection, caseViewWrites } from './projections/case-view.projection.js';
import { reportWrites, type IntervalRow } from '../reports/report-rows.projection.js';

export interface CommandOptions {
  /** The stream version the user saw; a mismatch is a 409 instead of a re-decision. */
  expectedVersion?: number;
  correlationId: string;
  /** When the command happens (ISO 8601): the demo data's back-dated story; by default now. */
  at?: string;
  /** Side writes that commit with the events: run in their transaction, before the append. */
  beforeAppend?: SideWrites;
}

type SideWrites = (runner: QueryRunner) => Promise<void>;

/**
 * Decisions per command. Each one lost is another command on the case landing first (another
 * process's: this process's own take turns), so a command loses at most once per command that
 * overtakes it; past this many the case is too busy, and the answer is the 409 of a conflict.
 */
const MAX_ATTEMPTS = 32;
/** Cases whose last written state this process keeps (least recently written first). */
const REMEMBERED_CASES = 1000;

/**
 * What this process keeps of a case it last wrote: the state as the case's row holds it (its notes
 * by count and size), which its next command decides on, and the notes themselves, which the
 * answer carries. The notes array is this memory's own and grows in place, so a note adds one
 * entry to what is kept instead of a new copy of all the case's notes, which would live until the
 * case's next command and so outlive the young generation of the garbage collector
 * (docs/performance.md, "The half-load tail and the notes each command kept").
 */
interface Remembered {
  state: Case;
  notes: Note[];
}

/**
 * The one path of every case command: decide on the case's state, append the events with the
 * version decided on and the new case_view row in one statement, answer the new state.
 *
 * The state is the one this process last wrote the case in, else its case_view row (the folded
 * state and its version: the stored snapshot). Either is proven current by the append's version
 * check; a decision on a memory that is not (another process wrote since) is made again on the
 * row, whatever it led to. A conflict on the row (a concurrent writer) is decided again on a fresh
 * row, unless the user named the version or status they saw: that is a 409.
 *
 * This process's commands on one case run one after another, as they would only conflict with each
 * other; commands on different cases meet in GroupCommit, which appends together those arriving
 * while the previous append is in flight. A creation with side writes (beforeAppend) runs in a
 * transaction of its own instead.
 */
@Injectable()
export class CaseCommandService {
  private readonly appends: GroupCommit;
  private readonly remembered = new Map<string, Remembered>();
  /** The last command of this process on each case that has one running or waiting. */
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: EventStore,
    private readonly projection: CaseViewProjection,
    private readonly emitter: EventEmitter2,
  ) {
    this.appends = new GroupCommit(
      store,
      (events) => this.committed(events),
      (flush) => this.emitter.emit(APPEND_FLUSHED, flush),
    );
  }

  execute(caseId: string, command: CaseCommand, actor: Actor, options: CommandOptions): Promise<Case> {
    return this.inTurn(caseId, async () =>
      copied(await this.decideAndAppend(caseId, command, actor, options)),
    );
  }

  /**
   * As execute, but the state's notes are the memory's own array, not a copy: for an answer made of
   * them at once (CaseAnswerJson's bytes, in the microtasks right after), never kept. The case's
   * next command extends that array only after its own append's round trip, so what is made before
   * then sees this command's notes and no later one. The copy of every note per command was about
   * a sixth of what a command left for the old generation (docs/performance.md, "The answer's
   * notes, and the open loop with and without a mark-compact").
   */
  executeForAnswer(
    caseId: string,
    command: CaseCommand,
    actor: Actor,
    options: CommandOptions,
  ): Promise<Case> {
    return this.inTurn(caseId, () => this.decideAndAppend(caseId, command, actor, options));
  }

  /**
   * A remake or refinement of `caseId` as the new case `newCaseId`: FollowUpOrdered on the
   * original and the new case's CaseCreated (with its origin), with both case_view rows and the
   * side writes (the id's reservation), in one transaction: both cases change, or neither.
   * Answers the new case.
   */
  orderFollowUp(
    caseId: string,
    newCaseId: string,
    input: ReorderInput,
    actor: Actor,
    options: CommandOptions,
  ): Promise<Case> {
    return this.inTurn(caseId, () => this.appendFollowUp(caseId, newCaseId, input, actor, options));
  }

  private inTurn<T>(caseId: string, work: () => Promise<T>): Promise<T> {
    const turn = (this.turns.get(caseId) ?? Promise.resolve()).then(work);
    const done = turn.catch(() => undefined);
    this.turns.set(caseId, done);
    void done.then(() => this.turns.get(caseId) === done && this.turns.delete(caseId));
    return turn;
  }

  private async appendFollowUp(
    caseId: string,
    newCaseId: string,
    input: ReorderInput,
    actor: Actor,
    options: CommandOptions,
  ): Promise<Case> {
    // The original's remembered state may be overtaken by this write's retry: read the row.
    this.remembered.delete(caseId);
    for (let attempt = 0; ; attempt++) {
      const state = await this.projection.snapshot(caseId);
      const now = options.at ?? new Date().toISOString();
      const events = this.decide(state, { type: 'OrderFollowUp', newCaseId, input }, actor, options, now);
      const ordered = events[0] as Extract<CaseEventData, { type: 'FollowUpOrdered' }>;
      const created: CaseEventData = {
        type: 'CaseCreated',
        data: followUpCreated(state!, ordered.data, now),
      };
      const original = this.appendOf(state, events, actor, options, now);
      const fresh = this.appendOf(null, [created], actor, options, now);
      try {
        const appends = [original.append, fresh.append];
        const recorded = await this.store.withTransactionFor(appends, async (runner) => {
          await options.beforeAppend?.(runner);
          const results = await this.store.appendStreams(appends, runner);
          const stale = results.find((result) => result instanceof WrongExpectedVersionError);
          if (stale) throw stale;
          return (results as RecordedEvent[][]).flat();
        });
        this.committed(recorded);
        return fresh.next;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        // The new case's stream exists already: its id was taken, which the caller answers with another.
        const idTaken = error.streamId === caseStreamId(newCaseId);
        if (idTaken || options.expectedVersion !== undefined || attempt >= MAX_ATTEMPTS)
          throw new DomainRejection({ kind: 'conflict', message: CASE_TEXTS.concurrentChange });
      }
    }
  }

  /**
   * One stream's append of `events` decided on `state`, with the rows of the read models they
   * change (the case's, the reports'), written in the append's statement.
   */
  private appendOf(
    state: Case | null,
    decided: NewEvent[],
    actor: Actor,
    options: CommandOptions,
    now: string,
  ): { append: StreamAppend; next: Case } {
    // Each event's JSON is made once: the append stores it, and evolve sees what a reader of the
    // stream will (the stored JSON). The reports' stage rows come from each status an event
    // leaves, as the rebuild finds them.
    const intervals: IntervalRow[] = [];
    const events = decided.map((event) => ({ ...event, json: JSON.stringify(event.data ?? null) }));
    const next = events.reduce<Case | null>((current, { type, json }) => {
      const event = { type, data: JSON.parse(json), actor, at: now } as CaseEvent;
      const evolved = evolve(current, event);
      const left = leftStatus(current, event, evolved);
      if (left) intervals.push({ ...left, caseId: evolved.id, version: evolved.version });
      return evolved;
    }, state)!;
    return {
      next,
      append: {
        streamId: caseStreamId(next.id),
        expectedVersion: state?.version ?? 0,
        events,
        metadata: { actor, correlationId: options.correlationId },
        recordedAt: now,
        rows: [
          ...caseViewWrites(
            state,
            next,
            events.map(({ type }) => type),
          ),
          ...reportWrites(state, next, intervals),
        ],
      },
    };
  }

  /** The new state, its notes the memory's own (see remember). */
  private async decideAndAppend(
    caseId: string,
    command: CaseCommand,
    actor: Actor,
    options: CommandOptions,
  ): Promise<Case> {
    for (let attempt = 0; ; attempt++) {
      // A version the user saw that differs from the memory's may be the newer one: ask the row.
      const remembered = this.remembered.get(caseId);
      const memory =
        attempt === 0 &&
        remembered &&
        (options.expectedVersion ?? remembered.state.version) === remembered.state.version
          ? remembered
          : undefined;
      this.remembered.delete(caseId);
      // Else the case's case_view row as its state; null when it has none (never created).
      const state = memory?.state ?? (await this.projection.snapshot(caseId));
      try {
        const now = options.at ?? new Date().toISOString();
        const events = this.decide(state, command, actor, options, now);
        if (!events.length && memory) continue;
        if (!events.length) return this.projection.withNotes(state!);
        const { append, next } = this.appendOf(state, events, actor, options, now);
        await (options.beforeAppend
          ? this.appendWithSideWrites(append, options.beforeAppend)
          : this.appends.append(append));
        return await this.remember(caseId, next, events, memory?.notes);
      } catch (error) {
        const stale = error instanceof WrongExpectedVersionError;
        if (memory && (stale || error instanceof DomainRejection)) continue;
        if (!stale) throw error;
        const userSawAVersion = options.expectedVersion !== undefined || hasFromStatus(command);
        if (userSawAVersion || attempt >= MAX_ATTEMPTS) {
          throw new DomainRejection({ kind: 'conflict', message: CASE_TEXTS.concurrentChange });
        }
      }
    }
  }

  /**
   * The whole case that `events` made, `next`, which the answer is; remembered for the case's next
   * command. Its notes are those the memory kept with the events' new ones after them, else (no
   * memory, or events that rewrote the notes) read once: a snapshot's earlier notes. They are the
   * memory's own array, which the case's next command extends (executeForAnswer).
   */
  private async remember(
    caseId: string,
    next: Case,
    events: NewEvent[],
    kept: Note[] | undefined,
  ): Promise<Case> {
    let notes: Note[];
    const rewritten = events.some(({ type }) => NOTES_REWRITING_EVENTS.has(type as CaseEvent['type']));
    if (kept && !rewritten && kept.length === (next.earlierNotes?.count ?? 0)) {
      notes = kept;
      notes.push(...next.notes);
    } else notes = (await this.projection.withNotes(next)).notes.slice();
    this.remembered.set(caseId, { state: this.projection.asSnapshot(next), notes });
    if (this.remembered.size > REMEMBERED_CASES) this.remembered.delete(this.remembered.keys().next().value!);
    const { earlierNotes: _earlier, ...whole } = next;
    return { ...whole, notes };
  }

  /** The events the command decides on `state`; throws the domain's rejection. */
  private decide(
    state: Case | null,
    command: CaseCommand,
    actor: Actor,
    options: CommandOptions,
    now: string,
  ): NewEvent[] {
    // A case the caller may not see is "not found" (decide says so), never a stale version.
    const visible = state && canSeeCase(actor, state) ? state : null;
    if (visible && options.expectedVersion !== undefined && options.expectedVersion !== visible.version) {
      throw new DomainRejection({ kind: 'conflict', message: CASE_TEXTS.concurrentChange });
    }
    const decision = decide(state, command, actor, now);
    if (!decision.ok) throw new DomainRejection(decision.rejection);
    return decision.events;
  }

  /** A creation's reservation of its id and claim of its uploads commit with its events, or nothing does. */
  private async appendWithSideWrites(append: StreamAppend, beforeAppend: SideWrites): Promise<void> {
    const events = await this.store.withTransactionFor([append], async (runner) => {
      await beforeAppend(runner);
      const [result] = await this.store.appendStreams([append], runner);
      if (result instanceof WrongExpectedVersionError) throw result;
      return result;
    });
    this.committed(events);
  }

  /** Tells this process's readers at once; other processes' hear the append's NOTIFY. */
  private committed(events: RecordedEvent[]): void {
    this.emitter.emit(EVENTS_COMMITTED, { events } satisfies EventsCommitted);
  }
}

/** The state as execute answers it: its notes a copy, as the memory's grow with the case's next note. */
function copied(state: Case): Case {
  return { ...state, notes: state.notes.slice() };
}

function hasFromStatus(command: CaseCommand): boolean {
  return command.type === 'AdvanceStage' && command.fromStatus !== undefined;
}
