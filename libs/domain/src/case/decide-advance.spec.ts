import type { Actor, Role } from '../permissions/roles.js';
import type { Case } from './case.js';
import { type CaseCommand } from './commands.js';
import { advanceAvailability, workflowBlock } from './decide.js';
import { type Decision } from './decision.js';
import { ALL_CASE_STATUSES, CASE_STATUSES, type CaseStatus, nextStatus, statusIndex } from './status.js';
import { CASE_TEXTS } from './texts.js';
import {
  BY_ROLE,
  E,
  NOW,
  ROLES,
  accepted,
  apply,
  caseAt,
  designer,
  drLee,
  drPatel,
  manager,
  notFound,
  onHold,
  refused,
  rep,
  run,
  tech,
  tech2,
} from '../testing/case-fixtures.js';

/** Who may "Complete Stage & Advance" each stage, with the exact 403 text for everyone else. */
const OWNED_STAGES: [CaseStatus, Role[], string][] = [
  ['Digital Planning', ['Designer', 'Manager'], 'This stage can only be completed by: Designer or Manager'],
  ['Model Printing', ['Technician', 'Manager'], 'This stage can only be completed by: Technician or Manager'],
  ['Thermoforming', ['Technician', 'Manager'], 'This stage can only be completed by: Technician or Manager'],
  [
    'Trimming & Polishing',
    ['Technician', 'Manager'],
    'This stage can only be completed by: Technician or Manager',
  ],
  ['Quality Check', ['Technician', 'Manager'], 'This stage can only be completed by: Technician or Manager'],
  [
    'Packaging & Labeling',
    ['Representative', 'Manager'],
    'This stage can only be completed by: Representative or Manager',
  ],
  [
    'Delivery to Doctor',
    ['Representative', 'Manager'],
    'This stage can only be completed by: Representative or Manager',
  ],
];
/** Statuses nobody can advance from, with the 409 guidance text whoever asks. */
const BLOCKED_STAGES: [CaseStatus, string][] = [
  ['Pending Approval', 'This case must be approved by a manager before proceeding.'],
  ['Doctor Approval', "Waiting for doctor's approval before proceeding."],
  ['Completed', 'This case is complete.'],
  ['Rejected', 'This case was rejected.'],
];

describe('AdvanceStage ("Complete Stage & Advance")', () => {
  const advance = (fromStatus?: string): CaseCommand => ({ type: 'AdvanceStage', fromStatus });

  it('the tables cover every status but Scan Received', () => {
    const covered = [...OWNED_STAGES.map(([status]) => status), ...BLOCKED_STAGES.map(([status]) => status)];
    expect(covered.sort()).toEqual(ALL_CASE_STATUSES.filter((status) => status !== 'Scan Received').sort());
  });

  it.each(
    OWNED_STAGES.flatMap(([status, owners, message]) =>
      ROLES.map((role) => {
        const expected = owners.includes(role)
          ? accepted(E.advanced(status, nextStatus(status)!))
          : refused('forbidden', message);
        return [status, role, expected] as const;
      }),
    ),
  )('at %s a %s → %j', (status, role, expected) => {
    expect(run(caseAt(status), advance(), BY_ROLE[role])).toEqual(expected);
  });

  it.each(
    BLOCKED_STAGES.flatMap(([status, message]) => ROLES.map((role) => [status, role, message] as const)),
  )('at %s a %s → 409 "%s"', (status, role, message) => {
    expect(run(caseAt(status), advance(), BY_ROLE[role])).toEqual(refused('conflict', message));
  });

  it.each(ALL_CASE_STATUSES.flatMap((status) => ROLES.map((role) => [status, role] as const)))(
    'a held case at %s: a %s gets the on-hold text',
    (status, role) => {
      expect(run(caseAt(status, E.held()), advance(), BY_ROLE[role])).toEqual(onHold);
    },
  );

  it.each(ALL_CASE_STATUSES)('another doctor asking at %s gets 404 (visibility first)', (status) => {
    expect(run(caseAt(status), advance(), drPatel)).toEqual(notFound);
    expect(run(caseAt(status, E.held()), advance('Bogus'), drPatel)).toEqual(notFound);
  });

  it.each<[Actor, Decision]>([
    [tech, accepted(E.advanced('Scan Received', 'Digital Planning'))],
    [tech2, refused('forbidden', 'This stage can only be completed by: the assigned user')],
    [manager, refused('forbidden', 'This stage can only be completed by: the assigned user')],
    [designer, refused('forbidden', 'This stage can only be completed by: the assigned user')],
  ])('a stage without owning roles belongs to "the assigned user" (%j)', (actor, expected) => {
    const state = caseAt('Scan Received', E.assignee('Scan Received', 'tech'));
    expect(run(state, advance(), actor)).toEqual(expected);
  });

  it.each(OWNED_STAGES.map(([status]) => status))(
    'advancing from %s enters the next status now and completes every step up to and including it',
    (status) => {
      const state = caseAt(status);
      const next = apply(state, run(state, advance()));
      const index = statusIndex(status);
      expect(next.status).toBe(nextStatus(status));
      expect(next.statusEnteredAt).toBe(NOW);
      expect(next.version).toBe(state.version + 1);
      next.alignerWorkflow.forEach((step, stepIndex) => {
        if (stepIndex < index)
          expect(step).toEqual(state.alignerWorkflow[stepIndex]); // dates kept
        else if (stepIndex === index) expect(step).toMatchObject({ completed: true, date: NOW });
        else if (next.status !== 'Completed') expect(step).toMatchObject({ completed: false, date: null });
      });
    },
  );

  it('keeps a date a step already has and dates the ones without', () => {
    const state = caseAt('Model Printing');
    const withGaps: Case = {
      ...state,
      alignerWorkflow: state.alignerWorkflow.map((step, index) =>
        index === 1
          ? { ...step, date: null }
          : index === 4
            ? { ...step, date: '2025-01-01T00:00:00.000Z' }
            : step,
      ),
    };
    const next = apply(withGaps, run(withGaps, advance()));
    expect(next.alignerWorkflow[0].date).toBe(state.alignerWorkflow[0].date);
    expect(next.alignerWorkflow[1]).toMatchObject({ completed: true, date: NOW });
    expect(next.alignerWorkflow[4]).toMatchObject({ completed: true, date: '2025-01-01T00:00:00.000Z' });
  });

  it.each<[CaseStatus, string, Actor, Decision]>([
    [
      'Digital Planning',
      'Digital Planning',
      designer,
      accepted(E.advanced('Digital Planning', 'Doctor Approval')),
    ],
    [
      'Digital Planning',
      'DigitalPlanning',
      designer,
      accepted(E.advanced('Digital Planning', 'Doctor Approval')),
    ],
    [
      'Digital Planning',
      'digital planning',
      manager,
      accepted(E.advanced('Digital Planning', 'Doctor Approval')),
    ],
    ['Delivery to Doctor', 'Delivery', rep, accepted(E.advanced('Delivery to Doctor', 'Completed'))],
    [
      'Delivery to Doctor',
      'Delivery to Doctor',
      rep,
      accepted(E.advanced('Delivery to Doctor', 'Completed')),
    ],
    [
      'Model Printing',
      'Digital Planning',
      tech,
      refused('conflict', 'The case was changed by someone else. Reload and try again.'),
    ],
    [
      'Model Printing',
      'Thermoforming',
      tech,
      refused('conflict', 'The case was changed by someone else. Reload and try again.'),
    ],
    [
      'Model Printing',
      'Digital Planning',
      designer,
      refused('conflict', 'The case was changed by someone else. Reload and try again.'),
    ],
    [
      'Completed',
      'Delivery to Doctor',
      rep,
      refused('conflict', 'The case was changed by someone else. Reload and try again.'),
    ],
    [
      'Quality Check',
      '',
      tech,
      refused('conflict', 'The case was changed by someone else. Reload and try again.'),
    ],
    [
      'Quality Check',
      'Bogus',
      tech,
      refused('conflict', 'The case was changed by someone else. Reload and try again.'),
    ],
    [
      'Doctor Approval',
      'Doctor Approval',
      designer,
      refused('conflict', "Waiting for doctor's approval before proceeding."),
    ],
    [
      'Quality Check',
      'Quality Check',
      designer,
      refused('forbidden', 'This stage can only be completed by: Technician or Manager'),
    ],
  ])('at %s with fromStatus %j a %j → %j', (status, fromStatus, actor, expected) => {
    expect(run(caseAt(status), advance(fromStatus), actor)).toEqual(expected);
  });

  it('two people pressing at once never skip a stage', () => {
    const seen = caseAt('Thermoforming');
    const first = apply(seen, run(seen, advance('Thermoforming'), tech), tech);
    expect(first.status).toBe('Trimming & Polishing');
    expect(run(first, advance('Thermoforming'), manager)).toEqual(
      refused('conflict', 'The case was changed by someone else. Reload and try again.'),
    );
  });

  it('walks the whole road with the owners only', () => {
    let state = caseAt('Digital Planning');
    const walkers: Record<string, Actor> = {
      'Digital Planning': designer,
      'Model Printing': tech,
      Thermoforming: tech,
      'Trimming & Polishing': tech,
      'Quality Check': tech,
      'Packaging & Labeling': rep,
      'Delivery to Doctor': rep,
    };
    const seen: CaseStatus[] = [state.status];
    while (state.status !== 'Completed') {
      const actor = state.status === 'Doctor Approval' ? drLee : walkers[state.status];
      const command: CaseCommand =
        state.status === 'Doctor Approval' ? { type: 'ApproveTreatmentPlan' } : advance(state.status);
      state = apply(state, run(state, command, actor), actor);
      seen.push(state.status);
    }
    expect(seen).toEqual(CASE_STATUSES.slice(2));
    expect(state.alignerWorkflow.every((step) => step.completed && step.date)).toBe(true);
  });

  it.each<[string, Case, Actor, { enabled: boolean; message: string | null }]>([
    ['owner at Digital Planning', caseAt('Digital Planning'), designer, { enabled: true, message: null }],
    [
      'wrong role',
      caseAt('Digital Planning'),
      tech,
      { enabled: false, message: 'This stage can only be completed by: Designer or Manager' },
    ],
    [
      'pending approval',
      caseAt('Pending Approval'),
      manager,
      { enabled: false, message: 'This case must be approved by a manager before proceeding.' },
    ],
    [
      'doctor approval',
      caseAt('Doctor Approval'),
      drLee,
      { enabled: false, message: "Waiting for doctor's approval before proceeding." },
    ],
    ['completed', caseAt('Completed'), manager, { enabled: false, message: 'This case is complete.' }],
    [
      'held',
      caseAt('Quality Check', E.held()),
      tech,
      { enabled: false, message: 'This case is currently on hold. Workflow actions are disabled.' },
    ],
  ])('advanceAvailability: %s', (_label, state, actor, expected) => {
    expect(advanceAvailability(state, actor)).toEqual(expected);
  });

  it.each<[Case, string | undefined]>([
    [caseAt('Pending Approval'), CASE_TEXTS.needsManagerApproval],
    [caseAt('Digital Planning'), undefined],
    [caseAt('Doctor Approval'), CASE_TEXTS.waitingForDoctor],
    [caseAt('Quality Check'), undefined],
    [caseAt('Completed'), CASE_TEXTS.complete],
    [caseAt('Rejected'), CASE_TEXTS.rejected],
    [caseAt('Quality Check', E.held()), CASE_TEXTS.onHold],
    [caseAt('Completed', E.held()), CASE_TEXTS.onHold],
  ])('workflowBlock(%#) → %j', (state, expected) => {
    expect(workflowBlock(state)).toBe(expected);
  });
});
