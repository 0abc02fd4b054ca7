import type { Actor, Role } from '../permissions/roles.js';
import type { Case, StageStatus } from './case.js';
import type { CaseCommand } from './commands.js';
import type { Decision } from './decision.js';
import type { CaseEventData } from './events.js';
import {
  BY_ROLE,
  E,
  NOW,
  accepted,
  apply,
  caseAt,
  designer,
  drLee,
  drPatel,
  given,
  manager,
  managerOnly,
  notFound,
  refused,
  rep,
  run,
  tech,
  time,
} from '../testing/case-fixtures.js';

describe('completion creates the aligner staging', () => {
  it.each<[number | null, number | null, number]>([
    [20, 18, 20],
    [10, 14, 14],
    [1, 0, 1],
    [null, 5, 5],
    [0, 0, 0],
    [null, null, 0],
  ])('upper %j, lower %j → %i stages', (upperSheets, lowerSheets, stages) => {
    const state = caseAt('Delivery to Doctor');
    const priced: Case = { ...state, upperSheets, lowerSheets };
    const done = apply(priced, run(priced, { type: 'AdvanceStage' }, rep), rep);
    expect(done.status).toBe('Completed');
    expect(done.alignerWorkflow.every((step) => step.completed && step.date)).toBe(true);
    expect(done.staging).toEqual(
      Array.from({ length: stages }, (_, index) => ({
        stageNumber: index + 1,
        status: 'Not Started',
        startDate: null,
        endDate: null,
      })),
    );
    expect(done.stageWearTimeInDays).toBe(15);
  });
});

describe('ChangeAlignerStage (assigned doctor or manager)', () => {
  const change = (stageNumber: number, action: 'start' | 'complete' | 'reopen' | 'reset'): CaseCommand => ({
    type: 'ChangeAlignerStage',
    stageNumber,
    action,
  });
  const to = (stageNumber: number, status: StageStatus) => accepted(E.stage(stageNumber, status));
  const completedCase = (...stages: StageStatus[]) =>
    caseAt(
      'Completed',
      ...stages.flatMap((status, index) => {
        const n = index + 1;
        if (status === 'Not Started') return [];
        if (status === 'In Progress') return [E.stage(n, 'In Progress')];
        return [E.stage(n, 'In Progress'), E.stage(n, 'Completed')];
      }),
    );

  it.each<[StageStatus, 'start' | 'complete' | 'reopen' | 'reset', Decision]>([
    ['Not Started', 'start', to(1, 'In Progress')],
    ['Not Started', 'complete', refused('conflict', 'Stage 1 is Not Started and cannot be completed.')],
    ['Not Started', 'reopen', refused('conflict', 'Stage 1 is Not Started and cannot be re-opened.')],
    ['Not Started', 'reset', to(1, 'Not Started')],
    ['In Progress', 'start', refused('conflict', 'Stage 1 is In Progress and cannot be started.')],
    ['In Progress', 'complete', to(1, 'Completed')],
    ['In Progress', 'reopen', refused('conflict', 'Stage 1 is In Progress and cannot be re-opened.')],
    ['In Progress', 'reset', to(1, 'Not Started')],
    ['Completed', 'start', refused('conflict', 'Stage 1 is Completed and cannot be started.')],
    ['Completed', 'complete', refused('conflict', 'Stage 1 is Completed and cannot be completed.')],
    ['Completed', 'reopen', to(1, 'In Progress')],
    ['Completed', 'reset', to(1, 'Not Started')],
  ])('stage 1 %s, %s → %j', (status, action, expected) => {
    const state = completedCase(status);
    expect(run(state, change(1, action), drLee)).toEqual(expected);
    expect(run(state, change(1, action), manager)).toEqual(expected);
  });

  it.each<[string, Case, CaseCommand, Actor, Decision]>([
    [
      'an unknown stage',
      completedCase(),
      change(99, 'start'),
      drLee,
      refused('not_found', 'Stage 99 does not exist.'),
    ],
    [
      'stage 0',
      completedCase(),
      change(0, 'start'),
      manager,
      refused('not_found', 'Stage 0 does not exist.'),
    ],
    [
      'no staging yet',
      caseAt('Quality Check'),
      change(1, 'start'),
      manager,
      refused('conflict', 'This case has no aligner staging.'),
    ],
    [
      'completed without sheets',
      caseAt('Completed', E.created({ upperSheets: 0, lowerSheets: 0 })),
      change(1, 'start'),
      manager,
      refused('conflict', 'This case has no aligner staging.'),
    ],
    [
      'a Technician',
      completedCase(),
      change(1, 'start'),
      tech,
      refused('forbidden', 'Only the assigned doctor or a manager can change aligner stages.'),
    ],
    [
      'a Designer',
      completedCase(),
      change(1, 'reset'),
      designer,
      refused('forbidden', 'Only the assigned doctor or a manager can change aligner stages.'),
    ],
    [
      'a Representative',
      completedCase(),
      change(1, 'start'),
      rep,
      refused('forbidden', 'Only the assigned doctor or a manager can change aligner stages.'),
    ],
    ['another doctor cannot see the case', completedCase(), change(1, 'start'), drPatel, notFound],
    [
      'a wrong transition before a wrong role',
      completedCase('In Progress'),
      change(1, 'start'),
      tech,
      refused('conflict', 'Stage 1 is In Progress and cannot be started.'),
    ],
  ])('%s', (_label, state, command, actor, expected) => {
    expect(run(state, command, actor)).toEqual(expected);
  });

  it('sets and clears the dates as the spec says', () => {
    let state = completedCase();
    const step = (command: CaseCommand, at: string) => {
      state = apply(state, run(state, command, drLee), drLee, at);
      return state.staging[0];
    };
    expect(step(change(1, 'start'), time(100))).toEqual({
      stageNumber: 1,
      status: 'In Progress',
      startDate: time(100),
      endDate: null,
    });
    expect(step(change(1, 'complete'), time(200))).toEqual({
      stageNumber: 1,
      status: 'Completed',
      startDate: time(100),
      endDate: time(200),
    });
    expect(step(change(1, 'reopen'), time(300))).toEqual({
      stageNumber: 1,
      status: 'In Progress',
      startDate: time(100),
      endDate: null,
    });
    expect(step(change(1, 'reset'), time(400))).toEqual({
      stageNumber: 1,
      status: 'Not Started',
      startDate: null,
      endDate: null,
    });
    expect(state.staging.slice(1).every((entry) => entry.status === 'Not Started')).toBe(true);
  });
});

describe('ScanAlignerStage (a stage QR starts its stage and completes the one before)', () => {
  const scan = (stageNumber: number): CaseCommand => ({ type: 'ScanAlignerStage', stageNumber });
  const started = (n: number) =>
    ({
      type: 'AlignerStageChanged',
      data: { stageNumber: n, status: 'In Progress', viaScan: true },
    }) as CaseEventData;
  const completed = (n: number) =>
    ({
      type: 'AlignerStageChanged',
      data: { stageNumber: n, status: 'Completed', viaScan: true },
    }) as CaseEventData;
  const invalidQr = refused('not_found', 'Invalid QR Code');

  it.each<[string, Case | null, number, Actor, Decision]>([
    ['stage 1 of a fresh staging', caseAt('Completed'), 1, drLee, accepted(started(1))],
    ['stage 2 while stage 1 not started', caseAt('Completed'), 2, drLee, accepted(started(2), completed(1))],
    [
      'stage 2 while stage 1 in progress',
      caseAt('Completed', E.stage(1, 'In Progress')),
      2,
      manager,
      accepted(started(2), completed(1)),
    ],
    [
      'stage 2 after stage 1 completed',
      caseAt('Completed', E.stage(1, 'In Progress'), E.stage(1, 'Completed')),
      2,
      drLee,
      accepted(started(2)),
    ],
    [
      'a stage already in progress',
      caseAt('Completed', E.stage(2, 'In Progress')),
      2,
      drLee,
      refused('conflict', 'Stage 2 is already started or completed.'),
    ],
    [
      'a stage already completed',
      caseAt('Completed', E.stage(3, 'In Progress'), E.stage(3, 'Completed')),
      3,
      drLee,
      refused('conflict', 'Stage 3 is already started or completed.'),
    ],
    ['an unknown stage', caseAt('Completed'), 4, drLee, invalidQr],
    ['no staging', caseAt('Quality Check'), 1, manager, invalidQr],
    ['an unknown case', null, 1, manager, invalidQr],
    ['another doctor', caseAt('Completed'), 1, drPatel, invalidQr],
    ['a deleted case', caseAt('Completed', E.deleted()), 1, manager, invalidQr],
    [
      'a Technician',
      caseAt('Completed'),
      1,
      tech,
      refused('forbidden', 'Only the assigned doctor or a manager can change aligner stages.'),
    ],
    [
      'already started beats wrong role',
      caseAt('Completed', E.stage(1, 'In Progress')),
      1,
      tech,
      refused('conflict', 'Stage 1 is already started or completed.'),
    ],
  ])('%s', (_label, state, stageNumber, actor, expected) => {
    expect(run(state, scan(stageNumber), actor)).toEqual(expected);
  });

  it('dates both stages: n starts now, n−1 gets a start if it had none and ends now', () => {
    const state = caseAt('Completed', E.stage(1, 'In Progress'));
    const startedAt = state.staging[0].startDate;
    const next = apply(state, run(state, scan(2), drLee), drLee);
    expect(next.staging.slice(0, 2)).toEqual([
      { stageNumber: 1, status: 'Completed', startDate: startedAt, endDate: NOW },
      { stageNumber: 2, status: 'In Progress', startDate: NOW, endDate: null },
    ]);
    const skipping = caseAt('Completed');
    const skipped = apply(skipping, run(skipping, scan(3), drLee), drLee);
    expect(skipped.staging[1]).toEqual({ stageNumber: 2, status: 'Completed', startDate: NOW, endDate: NOW });
    expect(skipped.version).toBe(skipping.version + 2);
  });
});

describe('DeleteCase (Manager only)', () => {
  it.each<[Role, Decision]>([
    ['Manager', accepted(E.deleted())],
    ['Representative', managerOnly],
    ['Designer', managerOnly],
    ['Technician', managerOnly],
    ['Doctor', managerOnly],
  ])('a %s deleting', (role, expected) => {
    expect(run(caseAt('Model Printing'), { type: 'DeleteCase' }, BY_ROLE[role])).toEqual(expected);
  });

  const everyCommand: CaseCommand[] = [
    { type: 'ApproveCase', doctorUsername: 'dr.lee', doctor: { username: 'dr.lee', role: 'Doctor' } },
    { type: 'RejectCase', reason: 'x' },
    { type: 'AdvanceStage' },
    { type: 'ApproveTreatmentPlan' },
    { type: 'RequestChanges', comment: 'x' },
    { type: 'HoldCase' },
    { type: 'ResumeCase' },
    { type: 'EditCase', fields: { patientName: 'x' } },
    { type: 'UpdatePricing', price: 1, upperSheets: 1, lowerSheets: 1 },
    { type: 'SaveSimulationLinks', simulationVideoUrl: '', simulationExternalLink: '' },
    { type: 'ReassignStage', stage: 'Model Printing', assignee: 'tech', assigneeIsLabUser: true },
    { type: 'GenerateCaseQr' },
    { type: 'AddNote', text: 'x' },
    { type: 'ChangeAlignerStage', stageNumber: 1, action: 'start' },
    { type: 'DeleteCase' },
  ];

  it.each(everyCommand.map((command) => [command.type, command] as const))(
    'a deleted case is invisible to %s, even for the manager',
    (_type, command) => {
      const state = caseAt('Model Printing', E.deleted());
      expect(state.deleted).toBe(true);
      expect(run(state, command, manager)).toEqual(notFound);
    },
  );

  it.each(everyCommand.map((command) => [command.type, command] as const))(
    'an unknown case answers 404 to %s',
    (_type, command) => {
      expect(run(null, command, manager)).toEqual(notFound);
    },
  );

  it.each(everyCommand.map((command) => [command.type, command] as const))(
    "another doctor's case answers 404 to %s, held or not",
    (_type, command) => {
      expect(run(caseAt('Doctor Approval'), command, drPatel)).toEqual(notFound);
      expect(run(caseAt('Doctor Approval', E.held()), command, drPatel)).toEqual(notFound);
      // A case a manager created has no doctor until approval.
      expect(run(given(E.created({ assignedDoctorUsername: null })), command, drLee)).toEqual(notFound);
    },
  );
});
