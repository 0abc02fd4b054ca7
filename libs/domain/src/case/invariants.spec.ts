import fc from 'fast-check';
import type { Case } from './case.js';
import { type CaseCommand, type CaseCommandType, type NewCaseInput } from './commands.js';
import { decide } from './decide.js';
import { type Decision } from './decision.js';
import { CASE_EVENT_TYPES, type CaseEvent, type CaseEventData } from './events.js';
import { evolve, foldCase } from './evolve.js';
import { ALL_CASE_STATUSES, CASE_STATUSES, nextStatus, statusIndex, type CaseStatus } from './status.js';
import { sameUsername } from '../permissions/roles.js';

/**
 * Property-based tests: random sequences of commands by random actors, starting from a created
 * case. Every accepted decision's events are applied through evolve; after every step the case
 * must still satisfy the workflow's invariants.
 */

import {
  at,
  drLee,
  USERS,
  CURRENT_STATUS,
  UNCHANGED,
  commandArb,
  type ActorChoice,
  actorArb,
  actorFor,
  type Setup,
  setupArb,
} from '../testing/case-command-arbitraries.js';

// ---------------------------------------------------------------------------------------------
// Checks

class InvariantBroken extends Error {}

function check(condition: unknown, message: () => string): asserts condition {
  if (!condition) throw new InvariantBroken(message());
}

function resolve(command: CaseCommand, state: Case): CaseCommand {
  if (command.type === 'AdvanceStage' && command.fromStatus === CURRENT_STATUS) {
    return { ...command, fromStatus: state.status };
  }
  if (command.type === 'EditCase') {
    const current = state as unknown as Record<string, unknown>;
    const fields = Object.fromEntries(
      Object.entries(command.fields).map(([field, value]) => [
        field,
        value === UNCHANGED ? structuredClone(current[field]) : value,
      ]),
    );
    return { ...command, fields };
  }
  return command;
}

const NOT_ADVANCEABLE: CaseStatus[] = ['Pending Approval', 'Doctor Approval', 'Completed', 'Rejected'];
/** Status moves the workflow allows, by event: one step forward, approvals, changes, rejection. */
function checkMove(before: Case, after: Case, event: CaseEventData): void {
  const from = before.status;
  const to = after.status;
  const move = `${event.type}: ${from} → ${to}`;
  switch (event.type) {
    case 'StageAdvanced':
      check(event.data.from === from && !NOT_ADVANCEABLE.includes(from), () => move);
      check(to === nextStatus(from) && statusIndex(to) === statusIndex(from) + 1, () => move);
      return;
    case 'CaseApproved':
      check(from === 'Pending Approval' && to === 'Digital Planning', () => move);
      return;
    case 'TreatmentPlanApproved':
      check(from === 'Doctor Approval' && to === 'Model Printing', () => move);
      return;
    case 'ChangesRequested':
      check(from === 'Doctor Approval' && to === 'Digital Planning', () => move);
      return;
    case 'CaseRejected':
      check(from === 'Pending Approval' && to === 'Rejected', () => move);
      return;
    default:
      check(from === to, () => move);
  }
}

/** Events that are workflow actions or reassignments, all disabled while a case is held. */
const DISABLED_WHILE_HELD = new Set<string>([
  'CaseApproved',
  'CaseRejected',
  'StageAdvanced',
  'TreatmentPlanApproved',
  'ChangesRequested',
  'StageAssigneeChanged',
  'QrAssignmentKept',
  'SimulationLinksSaved',
]);

function checkCase(state: Case, expectedStages: number | null): void {
  const index = statusIndex(state.status);
  check(state.alignerWorkflow.length === CASE_STATUSES.length, () => 'workflow has every step');
  state.alignerWorkflow.forEach((step, stepIndex) => {
    check(step.name === CASE_STATUSES[stepIndex], () => `step ${stepIndex} is ${step.name}`);
    // Completed: all steps done. Rejected: the Pending Approval layout (none done).
    const done = state.status === 'Completed' || (state.status !== 'Rejected' && stepIndex < index);
    check(step.completed === done, () => `at ${state.status} step ${step.name} completed=${step.completed}`);
    check(
      done ? typeof step.date === 'string' : step.date === null,
      () => `step ${step.name} date ${step.date}`,
    );
  });
  if (state.status !== 'Completed') {
    check(state.staging.length === 0, () => `staging before completion at ${state.status}`);
  } else {
    check(
      state.staging.length === expectedStages,
      () => `${state.staging.length} stages, expected ${expectedStages}`,
    );
  }
  state.staging.forEach((entry, entryIndex) => {
    check(entry.stageNumber === entryIndex + 1, () => `stage numbering at ${entryIndex}`);
    if (entry.status === 'Not Started')
      check(!entry.startDate && !entry.endDate, () => `stage ${entry.stageNumber} dates`);
    if (entry.status === 'In Progress')
      check(entry.startDate && !entry.endDate, () => `stage ${entry.stageNumber} dates`);
    if (entry.status === 'Completed') {
      check(
        entry.startDate && entry.endDate && entry.startDate <= entry.endDate,
        () => `stage ${entry.stageNumber} dates`,
      );
    }
  });
  const technicians = state.assignedTechnicians;
  check(technicians.length > 0, () => 'assigned technicians never empty');
  check(!technicians.includes('Unassigned') || technicians.length === 1, () => `technicians ${technicians}`);
  check(!technicians.includes('Tech Team'), () => `technicians ${technicians}`);
  check(new Set(state.notes.map((note) => note.id)).size === state.notes.length, () => 'note ids unique');
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const REJECTION_KINDS = new Set(['not_found', 'invalid', 'forbidden', 'conflict']);

// ---------------------------------------------------------------------------------------------

interface RunStats {
  runs: number;
  completed: number;
  stagingTouched: number;
  accepted: Set<CaseCommandType>;
  statuses: Set<CaseStatus>;
}

function runScenario(setup: Setup, steps: [ActorChoice, CaseCommand][], stats: RunStats): void {
  const { creator, ...input } = setup;
  const creation = decide(
    null,
    {
      type: 'CreateCase',
      caseId: 'CA-2025-500',
      input: { patientName: 'Jane Doe', doctorName: 'Dr. Lee', clinicName: 'Smile Clinic', ...input },
    },
    creator,
    at(0),
  );
  check(creation.ok && creation.events.length === 1, () => `creation refused: ${JSON.stringify(creation)}`);
  const log: CaseEvent[] = [{ ...creation.events[0], actor: creator, at: at(0) } as CaseEvent];
  let state = deepFreeze(evolve(null, log[0]));
  let expectedStages: number | null = null;
  check(state.version === 1, () => 'first version');
  checkCase(state, expectedStages);
  stats.runs++;

  steps.forEach(([choice, raw], stepIndex) => {
    const actor = actorFor(choice, state);
    const now = at(stepIndex + 1);
    const command = resolve(raw, state);
    const decision: Decision = decide(state, command, actor, now); // must never throw
    const label = () =>
      `step ${stepIndex} ${actor.username} ${JSON.stringify(command).slice(0, 200)} at ${state.status}`;

    check(
      JSON.stringify(decide(state, command, actor, now)) === JSON.stringify(decision),
      () => `not deterministic: ${label()}`,
    );
    if (!decision.ok) {
      check(!('events' in decision), () => `a rejection with events: ${label()}`);
      check(REJECTION_KINDS.has(decision.rejection.kind), () => `kind ${decision.rejection.kind}`);
      check(typeof decision.rejection.message === 'string' && decision.rejection.message.length > 0, label);
      return;
    }
    check(!state.deleted, () => `ok on a deleted case: ${label()}`);
    if (actor.role === 'Doctor') {
      check(
        sameUsername(state.assignedDoctorUsername, actor.username),
        () => `doctor ok on another's case: ${label()}`,
      );
    }
    stats.accepted.add(command.type);

    for (const event of decision.events) {
      check(CASE_EVENT_TYPES.includes(event.type), () => `unknown event ${event.type}`);
      check(
        event.type !== 'CaseCreated' && event.type !== 'CaseImported',
        () => `${event.type} mid-stream: ${label()}`,
      );
      if (state.onHold)
        check(!DISABLED_WHILE_HELD.has(event.type), () => `${event.type} while held: ${label()}`);
      const stamped = { ...event, actor, at: now } as CaseEvent;
      const before = state;
      const after = deepFreeze(evolve(before, stamped));
      log.push(stamped);
      check(after.version === before.version + 1, () => `version ${before.version} → ${after.version}`);
      check(after.version === log.length, () => 'version counts the events');
      check(after.notes.length >= before.notes.length, () => 'notes are only appended');
      checkMove(before, after, event);
      if (after.status === 'Completed' && before.status !== 'Completed') {
        expectedStages = Math.max(before.upperSheets ?? 0, before.lowerSheets ?? 0, 0);
        stats.completed++;
      }
      if (event.type === 'AlignerStageChanged') stats.stagingTouched++;
      checkCase(after, expectedStages);
      stats.statuses.add(after.status);
      state = after;
    }
  });

  // Replaying the log gives the same case: evolve is pure.
  check(JSON.stringify(foldCase(log)) === JSON.stringify(state), () => 'replay differs');
}

describe('case invariants under random command sequences', () => {
  it('holds every workflow invariant after every step, over a wide exploration of the workflow', () => {
    const stats: RunStats = {
      runs: 0,
      completed: 0,
      stagingTouched: 0,
      accepted: new Set(),
      statuses: new Set(),
    };
    fc.assert(
      fc.property(
        setupArb,
        fc.array(fc.tuple(actorArb, commandArb), { minLength: 1, maxLength: 100, size: 'max' }),
        (setup, steps) => runScenario(setup, steps, stats),
      ),
      { numRuns: 600 },
    );

    // The generators are not too weak: every reachable status was visited, cases regularly reached
    // Completed and their staging, and every command was accepted at least once.
    expect(stats.runs).toBeGreaterThanOrEqual(600);
    for (const status of ALL_CASE_STATUSES.filter((name) => name !== 'Scan Received')) {
      expect(stats.statuses).toContain(status);
    }
    expect(stats.completed).toBeGreaterThan(stats.runs / 20);
    expect(stats.stagingTouched).toBeGreaterThan(0);
    const everyType: CaseCommandType[] = [
      'ApproveCase',
      'RejectCase',
      'AdvanceStage',
      'ApproveTreatmentPlan',
      'RequestChanges',
      'HoldCase',
      'ResumeCase',
      'EditCase',
      'UpdatePricing',
      'SaveSimulationLinks',
      'ReassignStage',
      'GenerateCaseQr',
      'AddNote',
      'ChangeAlignerStage',
      'ScanAlignerStage',
      'DeleteCase',
    ];
    expect([...stats.accepted].sort()).toEqual(everyType.sort());
  });
});

describe('decide never throws, whatever the input', () => {
  it('on arbitrary payloads for every command at every status', () => {
    const anyCommandArb: fc.Arbitrary<CaseCommand> = fc.oneof(
      fc.anything().map((input): CaseCommand => ({
        type: 'CreateCase',
        caseId: 'CA-2025-1',
        input: (input ?? {}) as NewCaseInput,
      })),
      fc.anything().map((reason): CaseCommand => ({ type: 'RejectCase', reason })),
      fc.anything().map((comment): CaseCommand => ({ type: 'RequestChanges', comment })),
      fc.dictionary(fc.string(), fc.anything()).map((fields): CaseCommand => ({ type: 'EditCase', fields })),
      fc
        .tuple(fc.anything(), fc.anything(), fc.anything())
        .map(([price, upperSheets, lowerSheets]): CaseCommand => ({
          type: 'UpdatePricing',
          price,
          upperSheets,
          lowerSheets,
        })),
      fc
        .tuple(fc.anything(), fc.anything())
        .map(([simulationVideoUrl, simulationExternalLink]): CaseCommand => ({
          type: 'SaveSimulationLinks',
          simulationVideoUrl,
          simulationExternalLink,
        })),
      fc
        .tuple(fc.string(), fc.anything(), fc.boolean())
        .map(([stage, assignee, assigneeIsLabUser]): CaseCommand => ({
          type: 'ReassignStage',
          stage,
          assignee,
          assigneeIsLabUser,
        })),
      fc.anything().map((text): CaseCommand => ({ type: 'AddNote', text })),
      fc.string().map((fromStatus): CaseCommand => ({ type: 'AdvanceStage', fromStatus })),
      fc.double().map((stageNumber): CaseCommand => ({ type: 'ScanAlignerStage', stageNumber })),
      fc
        .tuple(fc.double(), fc.constantFrom('start', 'complete', 'reopen', 'reset' as const))
        .map(([stageNumber, action]): CaseCommand => ({ type: 'ChangeAlignerStage', stageNumber, action })),
    );
    const base = decide(
      null,
      {
        type: 'CreateCase',
        caseId: 'CA-2025-1',
        input: { patientName: 'a', doctorName: 'b', clinicName: 'c', upperSheets: 2 },
      },
      drLee,
      at(0),
    );
    const created = evolve(null, {
      ...(base as { events: CaseEventData[] }).events[0],
      actor: drLee,
      at: at(0),
    } as CaseEvent);
    fc.assert(
      fc.property(
        fc.constantFrom(...CASE_STATUSES, 'Rejected' as const),
        fc.boolean(),
        fc.constantFrom(...USERS),
        anyCommandArb,
        (status, onHold, actor, command) => {
          const state: Case = {
            ...created,
            status,
            onHold,
            staging:
              status === 'Completed'
                ? [{ stageNumber: 1, status: 'Not Started', startDate: null, endDate: null }]
                : [],
          };
          const decision = decide(state, command, actor, at(1));
          if (decision.ok)
            for (const event of decision.events) evolve(state, { ...event, actor, at: at(1) } as CaseEvent);
          else expect(REJECTION_KINDS.has(decision.rejection.kind)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
