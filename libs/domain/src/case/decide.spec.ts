import type { Case, CaseFile, StageStatus } from './case.js';
import {
  decide,
  advanceAvailability,
  checkNewCase,
  checkPricing,
  workflowBlock,
  type CaseCommand,
  type Decision,
  type NewCaseInput,
} from './decide.js';
import type { CaseEventData } from './events.js';
import { evolve } from './evolve.js';
import { ALL_CASE_STATUSES, CASE_STATUSES, nextStatus, statusIndex, type CaseStatus } from './status.js';
import { notesSize, notesTextLength } from './notes-bound.js';
import { CASE_TEXTS } from './texts.js';
import type { Actor, Role } from '../permissions/roles.js';
import { LIMITS } from '../validation/validation.js';

// ---------------------------------------------------------------------------------------------
// Fixtures: a case is given as the events that made it; commands are decided at NOW.

const T0 = Date.parse('2025-03-10T09:00:00.000Z');
const time = (hour: number) => new Date(T0 + hour * 3_600_000).toISOString();
const NOW = '2025-03-20T10:00:00.000Z';

const manager: Actor = { username: 'admin', role: 'Manager' };
const rep: Actor = { username: 'rep', role: 'Representative' };
const designer: Actor = { username: 'designer', role: 'Designer' };
const tech: Actor = { username: 'tech', role: 'Technician' };
const tech2: Actor = { username: 'tech2', role: 'Technician' };
const drLee: Actor = { username: 'dr.lee', role: 'Doctor' };
const drPatel: Actor = { username: 'dr.patel', role: 'Doctor' };
/** One actor per role; the Doctor is the case's assigned doctor. */
const BY_ROLE: Record<Role, Actor> = {
  Manager: manager,
  Representative: rep,
  Designer: designer,
  Technician: tech,
  Doctor: drLee,
};
const ROLES: Role[] = ['Manager', 'Representative', 'Designer', 'Technician', 'Doctor'];

type CreatedData = Extract<CaseEventData, { type: 'CaseCreated' }>['data'];
const E = {
  created: (data: Partial<CreatedData> = {}): CaseEventData => ({
    type: 'CaseCreated',
    data: {
      id: 'CA-2025-123',
      patientName: 'Jane Doe',
      doctorName: 'Dr. Lee',
      clinicName: 'Smile Clinic',
      priority: 'Normal',
      deliveryDate: '2025-03-24',
      treatmentPlanNotes: '',
      assignedDoctorUsername: 'dr.lee', // as a case dr.lee created
      files: [],
      price: 1200,
      upperSheets: 3,
      lowerSheets: 2,
      fee: { amount: 50, currency: 'USD' },
      ...data,
    },
  }),
  approved: (doctorUsername = 'dr.lee'): CaseEventData => ({
    type: 'CaseApproved',
    data: { doctorUsername },
  }),
  rejected: (reason = 'Scan unusable'): CaseEventData => ({ type: 'CaseRejected', data: { reason } }),
  advanced: (from: CaseStatus, to: CaseStatus): CaseEventData => ({
    type: 'StageAdvanced',
    data: { from, to },
  }),
  planApproved: (): CaseEventData => ({ type: 'TreatmentPlanApproved', data: {} }),
  changesRequested: (comment = 'Fix it'): CaseEventData => ({ type: 'ChangesRequested', data: { comment } }),
  held: (): CaseEventData => ({ type: 'CaseHeld', data: {} }),
  resumed: (): CaseEventData => ({ type: 'CaseResumed', data: {} }),
  links: (simulationVideoUrl: string, simulationExternalLink = ''): CaseEventData => ({
    type: 'SimulationLinksSaved',
    data: { simulationVideoUrl, simulationExternalLink },
  }),
  assignee: (stage: CaseStatus, assignee: string, viaQr = false): CaseEventData => ({
    type: 'StageAssigneeChanged',
    data: { stage, assignee, viaQr },
  }),
  stage: (stageNumber: number, status: StageStatus): CaseEventData => ({
    type: 'AlignerStageChanged',
    data: { stageNumber, status },
  }),
  deleted: (): CaseEventData => ({ type: 'CaseDeleted', data: {} }),
};

type Given = CaseEventData | [CaseEventData, Actor];
/** Folds events (by the manager unless said otherwise), one hour apart from T0. */
function given(...events: Given[]): Case {
  return events.reduce<Case | null>((state, item, index) => {
    const [event, actor] = Array.isArray(item) ? item : [item, manager];
    return evolve(state, { ...event, actor, at: time(index) } as Parameters<typeof evolve>[1]);
  }, null)!;
}

/** The events that take a new case (assigned to dr.lee on approval) to `status` the usual way. */
function road(status: CaseStatus, created: Partial<CreatedData> = {}): CaseEventData[] {
  const events = [E.created(created)];
  if (status === 'Pending Approval') return events;
  if (status === 'Rejected') return [...events, E.rejected()];
  events.push(E.approved());
  for (let current: CaseStatus = 'Digital Planning'; current !== status;) {
    const next: CaseStatus = nextStatus(current)!;
    events.push(current === 'Doctor Approval' ? E.planApproved() : E.advanced(current, next));
    current = next;
  }
  return events;
}

/** A case at `status`; Scan Received is off the usual road (approval skips it), so it is set up by hand. */
function caseAt(status: CaseStatus, ...more: Given[]): Case {
  if (status !== 'Scan Received') return given(...road(status), ...more);
  const pending = given(...road('Pending Approval'), E.approved(), ...more);
  return {
    ...pending,
    status: 'Scan Received',
    alignerWorkflow: pending.alignerWorkflow.map((step, index) => ({
      ...step,
      completed: index < 1,
      date: index < 1 ? step.date : null,
    })),
  };
}

const run = (state: Case | null, command: CaseCommand, actor: Actor = manager): Decision =>
  decide(state, command, actor, NOW);

/** Applies an accepted decision's events at `at`. */
function apply(state: Case | null, decision: Decision, actor: Actor = manager, at = NOW): Case {
  if (!decision.ok) throw new Error(`rejected: ${decision.rejection.message}`);
  return decision.events.reduce<Case>(
    (current, event) => evolve(current, { ...event, actor, at } as Parameters<typeof evolve>[1]),
    state as Case,
  );
}

const accepted = (...events: CaseEventData[]): Decision => ({ ok: true, events });
const refused = (kind: 'not_found' | 'invalid' | 'forbidden' | 'conflict', message: string): Decision => ({
  ok: false,
  rejection: { kind, message },
});
const notFound = refused('not_found', 'Case not found.');
const onHold = refused('conflict', 'This case is currently on hold. Workflow actions are disabled.');
const managerOnly = refused('forbidden', 'Only a manager can do this.');

// ---------------------------------------------------------------------------------------------

describe('guidance and rejection texts are exactly those of the spec and the API contract', () => {
  it.each<[string, string]>([
    [CASE_TEXTS.needsManagerApproval, 'This case must be approved by a manager before proceeding.'],
    [CASE_TEXTS.waitingForDoctor, "Waiting for doctor's approval before proceeding."],
    [CASE_TEXTS.complete, 'This case is complete.'],
    [CASE_TEXTS.onHold, 'This case is currently on hold. Workflow actions are disabled.'],
    [
      CASE_TEXTS.onlyCompletedBy(['Technician', 'Manager']),
      'This stage can only be completed by: Technician or Manager',
    ],
    [CASE_TEXTS.onlyCompletedBy([]), 'This stage can only be completed by: the assigned user'],
    [CASE_TEXTS.concurrentChange, 'The case was changed by someone else. Reload and try again.'],
    [CASE_TEXTS.staleStatus, 'The case was changed by someone else. Reload and try again.'],
    [CASE_TEXTS.invalidQr, 'Invalid QR Code'],
    [CASE_TEXTS.stageAlreadyStarted(3), 'Stage 3 is already started or completed.'],
    [CASE_TEXTS.createdNote('Doctor'), 'Case created by Doctor and submitted for approval.'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('CreateCase', () => {
  const input: NewCaseInput = { patientName: 'Jane Doe', doctorName: 'Dr. Lee', clinicName: 'Smile Clinic' };
  const create = (actor: Actor, fields: NewCaseInput = input, state: Case | null = null) =>
    run(state, { type: 'CreateCase', caseId: 'CA-2025-123', input: fields }, actor);
  const createdData = (extra: Partial<CreatedData> = {}): CaseEventData => ({
    type: 'CaseCreated',
    data: {
      id: 'CA-2025-123',
      patientName: 'Jane Doe',
      doctorName: 'Dr. Lee',
      clinicName: 'Smile Clinic',
      priority: 'Normal',
      deliveryDate: '2025-04-03', // NOW + 14 days
      treatmentPlanNotes: '',
      files: [],
      price: null,
      upperSheets: null,
      lowerSheets: null,
      assignedDoctorUsername: null,
      fee: null,
      ...extra,
    },
  });

  it.each<[Role, Decision]>([
    ['Manager', accepted(createdData())],
    ['Representative', accepted(createdData())],
    [
      'Doctor',
      accepted(createdData({ assignedDoctorUsername: 'dr.lee', fee: { amount: 50, currency: 'USD' } })),
    ],
    ['Designer', refused('forbidden', 'Only a Manager, a Representative or a Doctor can create cases.')],
    ['Technician', refused('forbidden', 'Only a Manager, a Representative or a Doctor can create cases.')],
  ])('a %s creating a case → %j', (role, expected) => {
    expect(create(BY_ROLE[role])).toEqual(expected);
  });

  it.each<[string, NewCaseInput, Partial<CreatedData>]>([
    ['defaults: priority Normal, due date created + 14 days', input, {}],
    [
      'text trimmed, everything given',
      {
        patientName: '  Jane Doe ',
        doctorName: ' Dr. Lee',
        clinicName: 'Smile Clinic  ',
        priority: 'High',
        deliveryDate: '2025-05-01',
        treatmentPlanNotes: '  Crowding, upper arch ',
        files: [{ name: 'upper.stl', type: 'STL', url: '/uploads/a.stl', size: '1.23 MB' }],
        price: '1500.50',
        upperSheets: '20',
        lowerSheets: 18,
      },
      {
        priority: 'High',
        deliveryDate: '2025-05-01',
        treatmentPlanNotes: 'Crowding, upper arch',
        files: [{ name: 'upper.stl', type: 'STL', url: '/uploads/a.stl', size: '1.23 MB' }],
        price: 1500.5,
        upperSheets: 20,
        lowerSheets: 18,
      },
    ],
    [
      'a full ISO due date keeps its day',
      { ...input, deliveryDate: '2025-05-01T00:00:00.000Z' },
      { deliveryDate: '2025-05-01' },
    ],
    ['an empty due date takes the default', { ...input, deliveryDate: '' }, {}],
    ['a null due date takes the default', { ...input, deliveryDate: null }, {}],
    ['non-numeric pricing is absent', { ...input, price: 'abc', upperSheets: '', lowerSheets: 'many' }, {}],
    ['fractional sheets are absent', { ...input, upperSheets: '2.5', lowerSheets: 3.5 }, {}],
    [
      'a file without size gets an empty size',
      { ...input, files: [{ name: 'p.jpg', type: 'Photo', url: '/u/p.jpg' }] },
      { files: [{ name: 'p.jpg', type: 'Photo', url: '/u/p.jpg', size: '' }] },
    ],
  ])('%s', (_label, fields, extra) => {
    expect(create(rep, fields)).toEqual(accepted(createdData(extra)));
  });

  it.each<[string, NewCaseInput, string[]]>([
    [
      'nothing given',
      {},
      ['Patient name is required.', 'Doctor name is required.', 'Clinic name is required.'],
    ],
    ['blank patient name', { ...input, patientName: '   ' }, ['Patient name is required.']],
    ['missing doctor name', { ...input, doctorName: undefined }, ['Doctor name is required.']],
    ['missing clinic name', { ...input, clinicName: null }, ['Clinic name is required.']],
    ['a name that is not text', { ...input, patientName: 42 }, ['Patient name must be text.']],
    ['unknown priority', { ...input, priority: 'Urgent' }, ['Priority must be Normal or High.']],
    ['priority in the wrong case', { ...input, priority: 'high' }, ['Priority must be Normal or High.']],
    [
      'due date not a date',
      { ...input, deliveryDate: 'next week' },
      ['Due date must be a date (YYYY-MM-DD).'],
    ],
    [
      'due date does not exist',
      { ...input, deliveryDate: '2025-02-30' },
      ['Due date must be a date (YYYY-MM-DD).'],
    ],
    ['files not a list', { ...input, files: 'upper.stl' }, ['Files must be a list of at most 20 files.']],
    [
      'too many files',
      {
        ...input,
        files: Array.from({ length: 21 }, () => ({ name: 'a', type: 'STL', url: '/a', size: '1 MB' })),
      },
      ['Files must be a list of at most 20 files.'],
    ],
    [
      'a file without url',
      { ...input, files: [{ name: 'upper.stl', type: 'STL' }] },
      ['Each file needs a name, a url, a size and a known type.'],
    ],
    [
      'a file url that is neither http(s) nor a stored file',
      { ...input, files: [{ name: 'a.stl', type: 'STL', url: 'javascript:alert(1)' }] },
      ['File url of "a.stl" must be an http(s) URL or a stored file.'],
    ],
    [
      'a protocol-relative file url',
      { ...input, files: [{ name: 'a.stl', type: 'STL', url: '//evil.example/a.stl' }] },
      ['File url of "a.stl" must be an http(s) URL or a stored file.'],
    ],
    [
      'a file of unknown type',
      { ...input, files: [{ name: 'a', type: 'Video', url: '/a' }] },
      ['Each file needs a name, a url, a size and a known type.'],
    ],
    ['negative price', { ...input, price: -5 }, ['Price must be between 0 and 1000000.']],
    [
      'negative sheets',
      { ...input, upperSheets: '-2' },
      ['Sheet counts must be whole numbers between 0 and 200.'],
    ],
    [
      'notes too long',
      { ...input, treatmentPlanNotes: 'x'.repeat(10_001) },
      ['Treatment plan notes must be at most 10000 characters.'],
    ],
    [
      'several problems at once',
      { ...input, patientName: '', priority: 'Low', deliveryDate: 'soon' },
      [
        'Patient name is required.',
        'Priority must be Normal or High.',
        'Due date must be a date (YYYY-MM-DD).',
      ],
    ],
  ])('invalid: %s', (_label, fields, errors) => {
    expect(create(manager, fields)).toEqual({
      ok: false,
      rejection: { kind: 'invalid', message: errors[0], details: errors },
    });
    expect(checkNewCase(fields, NOW)).toEqual({ errors });
  });

  it('checks the role before the input (rule order)', () => {
    expect(create(tech, {})).toEqual(
      refused('forbidden', 'Only a Manager, a Representative or a Doctor can create cases.'),
    );
  });

  it('refuses an id that already has a stream, even a deleted one', () => {
    expect(create(manager, input, given(E.created()))).toEqual(
      refused('conflict', 'Case CA-2025-123 already exists.'),
    );
    expect(create(manager, input, given(E.created(), E.deleted()))).toEqual(
      refused('conflict', 'Case CA-2025-123 already exists.'),
    );
  });

  it('crosses month and year ends for the default due date', () => {
    const decision = decide(
      null,
      { type: 'CreateCase', caseId: 'CA-2025-999', input },
      manager,
      '2025-12-25T22:00:00.000Z',
    );
    expect(
      decision.ok && decision.events[0].type === 'CaseCreated' && decision.events[0].data.deliveryDate,
    ).toBe('2026-01-08');
  });

  it.each<[Role, string]>([
    ['Manager', 'Case created by Manager and submitted for approval.'],
    ['Representative', 'Case created by Representative and submitted for approval.'],
    ['Doctor', 'Case created by Doctor and submitted for approval.'],
  ])('a new case by a %s starts at Pending Approval with the note "%s"', (role, note) => {
    const actor = BY_ROLE[role];
    const theCase = apply(null, create(actor), actor, time(0));
    expect(theCase).toMatchObject({
      id: 'CA-2025-123',
      type: 'Clear Aligner',
      status: 'Pending Approval',
      statusEnteredAt: time(0),
      createdDate: time(0),
      deliveryDate: '2025-04-03',
      priority: 'Normal',
      onHold: false,
      assignedTechnicians: ['Unassigned'],
      staging: [],
      stageWearTimeInDays: 15,
      simulationVideoUrl: '',
      simulationExternalLink: '',
      createdBy: actor,
      version: 1,
    });
    expect(theCase.alignerWorkflow).toEqual(
      CASE_STATUSES.map((name) => ({ name, completed: false, date: null, assignedTo: 'Tech Team' })),
    );
    expect(theCase.notes).toEqual([
      { id: expect.stringMatching(/^note-/), author: actor.username, role, text: note, timestamp: time(0) },
    ]);
  });

  it('records the doctor as assigned doctor with the $50 fee paid at creation', () => {
    const theCase = apply(null, create(drLee), drLee, time(0));
    expect(theCase.assignedDoctorUsername).toBe('dr.lee');
    expect(theCase.fee).toEqual({ amount: 50, currency: 'USD', paidAt: time(0) });
    const byManager = apply(null, create(manager), manager, time(0));
    expect(byManager.assignedDoctorUsername).toBeNull();
    expect(byManager.fee).toBeNull();
  });
});

describe('ApproveCase (manager approval)', () => {
  const lee = { username: 'dr.lee', role: 'Doctor' as const };
  const approve = (
    doctorUsername: string,
    doctor: { username: string; role: Role } | null = lee,
  ): CaseCommand => ({
    type: 'ApproveCase',
    doctorUsername,
    doctor,
  });
  const pending = () => given(E.created({ assignedDoctorUsername: 'dr.lee' }));

  it.each<[string, Case, CaseCommand, Actor, Decision]>([
    ['the manager with a doctor', pending(), approve('dr.lee'), manager, accepted(E.approved('dr.lee'))],
    [
      'the doctor name as stored, not as typed',
      pending(),
      approve('DR.LEE'),
      manager,
      accepted(E.approved('dr.lee')),
    ],
    [
      'another doctor than the creator',
      pending(),
      approve('dr.patel', { username: 'dr.patel', role: 'Doctor' }),
      manager,
      accepted(E.approved('dr.patel')),
    ],
    [
      'no doctor chosen',
      pending(),
      approve('', null),
      manager,
      refused('invalid', 'Choose a doctor to approve this case.'),
    ],
    [
      'a blank doctor',
      pending(),
      approve('   ', null),
      manager,
      refused('invalid', 'Choose a doctor to approve this case.'),
    ],
    [
      'an unknown user',
      pending(),
      approve('ghost', null),
      manager,
      refused('invalid', '"ghost" is not a doctor.'),
    ],
    [
      'a user who is not a doctor',
      pending(),
      approve('tech', { username: 'tech', role: 'Technician' }),
      manager,
      refused('invalid', '"tech" is not a doctor.'),
    ],
    ['a Representative', pending(), approve('dr.lee'), rep, managerOnly],
    ['a Designer', pending(), approve('dr.lee'), designer, managerOnly],
    ['a Technician', pending(), approve('dr.lee'), tech, managerOnly],
    ['the doctor who created it', pending(), approve('dr.lee'), drLee, managerOnly],
    ['another doctor (cannot see it)', pending(), approve('dr.lee'), drPatel, notFound],
    [
      'past pending approval',
      caseAt('Digital Planning'),
      approve('dr.lee'),
      manager,
      refused('conflict', 'Only a case pending approval can be approved or rejected.'),
    ],
    [
      'a rejected case',
      caseAt('Rejected'),
      approve('dr.lee'),
      manager,
      refused('conflict', 'Only a case pending approval can be approved or rejected.'),
    ],
    ['a held case', given(E.created(), E.held()), approve('dr.lee'), manager, onHold],
    [
      'a held case, wrong role (state before role)',
      given(E.created(), E.held()),
      approve('dr.lee'),
      tech,
      onHold,
    ],
    [
      'wrong status, wrong role and no doctor',
      caseAt('Thermoforming'),
      approve('', null),
      tech,
      refused('conflict', 'Only a case pending approval can be approved or rejected.'),
    ],
    ['wrong role and no doctor (role before input)', pending(), approve('', null), rep, managerOnly],
  ])('%s', (_label, state, command, actor, expected) => {
    expect(run(state, command, actor)).toEqual(expected);
  });

  it('moves to Digital Planning, completes Pending Approval and Scan Received, assigns the doctor and notes it', () => {
    const state = given(E.created());
    const approved = apply(state, run(state, approve('dr.lee')));
    expect(approved.status).toBe('Digital Planning');
    expect(approved.statusEnteredAt).toBe(NOW);
    expect(approved.assignedDoctorUsername).toBe('dr.lee');
    expect(approved.alignerWorkflow.map((step) => [step.name, step.completed, step.date])).toEqual(
      CASE_STATUSES.map((name, index) => [name, index < 2, index < 2 ? NOW : null]),
    );
    expect(approved.notes.at(-1)).toMatchObject({
      author: 'admin',
      role: 'Manager',
      text: 'Case approved by admin and assigned to doctor dr.lee.',
      timestamp: NOW,
    });
    expect(approved.version).toBe(state.version + 1);
  });
});

describe('RejectCase', () => {
  const reject = (reason: unknown): CaseCommand => ({ type: 'RejectCase', reason });

  it.each<[string, Case, unknown, Actor, Decision]>([
    [
      'with a reason',
      caseAt('Pending Approval'),
      'Scan unusable',
      manager,
      accepted(E.rejected('Scan unusable')),
    ],
    [
      'the reason trimmed',
      caseAt('Pending Approval'),
      '  Scan unusable \n',
      manager,
      accepted(E.rejected('Scan unusable')),
    ],
    [
      'an empty reason',
      caseAt('Pending Approval'),
      '',
      manager,
      refused('invalid', 'A reason is required to reject a case.'),
    ],
    [
      'a blank reason',
      caseAt('Pending Approval'),
      '   ',
      manager,
      refused('invalid', 'A reason is required to reject a case.'),
    ],
    [
      'no reason',
      caseAt('Pending Approval'),
      undefined,
      manager,
      refused('invalid', 'A reason is required to reject a case.'),
    ],
    [
      'a reason that is not text',
      caseAt('Pending Approval'),
      5,
      manager,
      refused('invalid', 'Reason must be text.'),
    ],
    [
      'a reason too long',
      caseAt('Pending Approval'),
      'x'.repeat(2001),
      manager,
      refused('invalid', 'Reason must be at most 2000 characters.'),
    ],
    ['a Representative', caseAt('Pending Approval'), 'No', rep, managerOnly],
    ['a Technician', caseAt('Pending Approval'), 'No', tech, managerOnly],
    [
      'after approval',
      caseAt('Digital Planning'),
      'No',
      manager,
      refused('conflict', 'Only a case pending approval can be approved or rejected.'),
    ],
    [
      'twice',
      caseAt('Rejected'),
      'No',
      manager,
      refused('conflict', 'Only a case pending approval can be approved or rejected.'),
    ],
    ['while held', given(E.created(), E.held()), 'No', manager, onHold],
  ])('%s', (_label, state, reason, actor, expected) => {
    expect(run(state, reject(reason), actor)).toEqual(expected);
  });

  it('makes the case Rejected (terminal, gray, inactive) with the reason as a note', () => {
    const state = caseAt('Pending Approval');
    const rejected = apply(state, run(state, reject('Scan unusable')));
    expect(rejected.status).toBe('Rejected');
    expect(rejected.statusEnteredAt).toBe(NOW);
    expect(rejected.notes.at(-1)?.text).toBe('Case rejected: Scan unusable');
    expect(rejected.alignerWorkflow.every((step) => !step.completed && step.date === null)).toBe(true);
    expect(run(rejected, { type: 'AdvanceStage' })).toEqual(refused('conflict', 'This case was rejected.'));
  });
});

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

describe('ApproveTreatmentPlan / RequestChanges (assigned doctor, at Doctor Approval)', () => {
  const approvePlan: CaseCommand = { type: 'ApproveTreatmentPlan' };
  const requestChanges = (comment: unknown): CaseCommand => ({ type: 'RequestChanges', comment });
  const onlyAssigned = refused('forbidden', 'Only the assigned doctor can review this treatment plan.');
  const notNow = refused('conflict', 'The treatment plan can only be reviewed at Doctor Approval.');

  it.each<[string, Case, CaseCommand, Actor, Decision]>([
    [
      'the assigned doctor approves',
      caseAt('Doctor Approval'),
      approvePlan,
      drLee,
      accepted(E.planApproved()),
    ],
    [
      'in another letter case',
      caseAt('Doctor Approval'),
      approvePlan,
      { username: 'Dr.Lee', role: 'Doctor' },
      accepted(E.planApproved()),
    ],
    [
      'the Manager cannot approve for the doctor',
      caseAt('Doctor Approval'),
      approvePlan,
      manager,
      onlyAssigned,
    ],
    ['a Designer', caseAt('Doctor Approval'), approvePlan, designer, onlyAssigned],
    ['a Technician', caseAt('Doctor Approval'), approvePlan, tech, onlyAssigned],
    ['a Representative', caseAt('Doctor Approval'), approvePlan, rep, onlyAssigned],
    ['another doctor cannot see the case', caseAt('Doctor Approval'), approvePlan, drPatel, notFound],
    ['before Doctor Approval', caseAt('Digital Planning'), approvePlan, drLee, notNow],
    ['after Doctor Approval', caseAt('Model Printing'), approvePlan, drLee, notNow],
    ['wrong status beats wrong role', caseAt('Model Printing'), approvePlan, tech, notNow],
    ['held', caseAt('Doctor Approval', E.held()), approvePlan, drLee, onHold],
    ['held, wrong role', caseAt('Doctor Approval', E.held()), approvePlan, manager, onHold],
    [
      'request changes with a comment',
      caseAt('Doctor Approval'),
      requestChanges('Move tooth 11'),
      drLee,
      accepted(E.changesRequested('Move tooth 11')),
    ],
    [
      'the comment trimmed',
      caseAt('Doctor Approval'),
      requestChanges('  Move tooth 11 \n'),
      drLee,
      accepted(E.changesRequested('Move tooth 11')),
    ],
    [
      'an empty comment',
      caseAt('Doctor Approval'),
      requestChanges(''),
      drLee,
      refused('invalid', 'A comment is required to request changes.'),
    ],
    [
      'a blank comment',
      caseAt('Doctor Approval'),
      requestChanges('   '),
      drLee,
      refused('invalid', 'A comment is required to request changes.'),
    ],
    [
      'no comment',
      caseAt('Doctor Approval'),
      requestChanges(undefined),
      drLee,
      refused('invalid', 'A comment is required to request changes.'),
    ],
    [
      'a comment not text',
      caseAt('Doctor Approval'),
      requestChanges(['x']),
      drLee,
      refused('invalid', 'Comment must be text.'),
    ],
    ['a manager requesting changes', caseAt('Doctor Approval'), requestChanges('x'), manager, onlyAssigned],
    ['another doctor requesting changes', caseAt('Doctor Approval'), requestChanges('x'), drPatel, notFound],
    ['changes at the wrong status', caseAt('Quality Check'), requestChanges('x'), drLee, notNow],
    ['changes while held', caseAt('Doctor Approval', E.held()), requestChanges('x'), drLee, onHold],
    [
      'wrong role before missing comment',
      caseAt('Doctor Approval'),
      requestChanges(''),
      designer,
      onlyAssigned,
    ],
  ])('%s', (_label, state, command, actor, expected) => {
    expect(run(state, command, actor)).toEqual(expected);
  });

  it('approval moves the case to Model Printing with the steps up to Doctor Approval completed', () => {
    const state = caseAt('Doctor Approval');
    const next = apply(state, run(state, approvePlan, drLee), drLee);
    expect(next.status).toBe('Model Printing');
    expect(next.statusEnteredAt).toBe(NOW);
    expect(next.alignerWorkflow.map((step) => step.completed)).toEqual(
      CASE_STATUSES.map((_, index) => index < 4),
    );
    expect(next.alignerWorkflow[3].date).toBe(NOW);
    expect(next.alignerWorkflow[2].date).toBe(state.alignerWorkflow[2].date);
  });

  it('changes send the case back to Digital Planning, reopen the steps from it and note the comment', () => {
    const state = caseAt('Doctor Approval');
    const back = apply(state, run(state, requestChanges('Move tooth 11'), drLee), drLee);
    expect(back.status).toBe('Digital Planning');
    expect(back.statusEnteredAt).toBe(NOW);
    expect(back.alignerWorkflow.slice(0, 2)).toEqual(state.alignerWorkflow.slice(0, 2));
    expect(back.alignerWorkflow.slice(2).every((step) => !step.completed && step.date === null)).toBe(true);
    expect(back.notes.at(-1)).toMatchObject({
      author: 'dr.lee',
      role: 'Doctor',
      text: 'Changes requested: Move tooth 11',
    });
    // The designer can work the plan again and send it back.
    expect(run(back, { type: 'AdvanceStage', fromStatus: 'Digital Planning' }, designer)).toEqual(
      accepted(E.advanced('Digital Planning', 'Doctor Approval')),
    );
  });
});

describe('HoldCase / ResumeCase (Manager only, at any status)', () => {
  it.each(ALL_CASE_STATUSES.flatMap((status) => ROLES.map((role) => [status, role] as const)))(
    'at %s a %s holding',
    (status, role) => {
      const expected = role === 'Manager' ? accepted(E.held()) : managerOnly;
      expect(run(caseAt(status), { type: 'HoldCase' }, BY_ROLE[role])).toEqual(expected);
    },
  );

  it.each(ALL_CASE_STATUSES.flatMap((status) => ROLES.map((role) => [status, role] as const)))(
    'at %s a %s resuming',
    (status, role) => {
      const expected = role === 'Manager' ? accepted(E.resumed()) : managerOnly;
      expect(run(caseAt(status, E.held()), { type: 'ResumeCase' }, BY_ROLE[role])).toEqual(expected);
    },
  );

  it.each<[string, Case, CaseCommand, Actor, Decision]>([
    [
      'holding a held case',
      caseAt('Thermoforming', E.held()),
      { type: 'HoldCase' },
      manager,
      refused('conflict', 'This case is already on hold.'),
    ],
    [
      'holding a held case, wrong role',
      caseAt('Thermoforming', E.held()),
      { type: 'HoldCase' },
      tech,
      refused('conflict', 'This case is already on hold.'),
    ],
    [
      'resuming a case not held',
      caseAt('Thermoforming'),
      { type: 'ResumeCase' },
      manager,
      refused('conflict', 'This case is not on hold.'),
    ],
    [
      'resuming after a resume',
      caseAt('Thermoforming', E.held(), E.resumed()),
      { type: 'ResumeCase' },
      manager,
      refused('conflict', 'This case is not on hold.'),
    ],
    ['another doctor', caseAt('Thermoforming'), { type: 'HoldCase' }, drPatel, notFound],
  ])('%s', (_label, state, command, actor, expected) => {
    expect(run(state, command, actor)).toEqual(expected);
  });

  it('toggles onHold and nothing else', () => {
    const state = caseAt('Quality Check');
    const held = apply(state, run(state, { type: 'HoldCase' }));
    expect(held).toEqual({ ...state, onHold: true, version: state.version + 1 });
    const resumed = apply(held, run(held, { type: 'ResumeCase' }));
    expect(resumed).toEqual({ ...state, onHold: false, version: state.version + 2 });
  });
});

describe('EditCase (Manager only; editable fields may change, others must be unchanged)', () => {
  const edit = (fields: Record<string, unknown>): CaseCommand => ({ type: 'EditCase', fields });
  const edited = (changes: Record<string, unknown>): Decision =>
    accepted({ type: 'CaseDetailsEdited', data: { changes } } as CaseEventData);
  const state = caseAt('Model Printing');

  it.each<[string, Record<string, unknown>, Decision]>([
    ['patient name, trimmed', { patientName: '  John Roe ' }, edited({ patientName: 'John Roe' })],
    [
      'doctor and clinic names',
      { doctorName: 'Dr. Patel', clinicName: 'Bright Smiles' },
      edited({ doctorName: 'Dr. Patel', clinicName: 'Bright Smiles' }),
    ],
    ['priority', { priority: 'High' }, edited({ priority: 'High' })],
    [
      'treatment plan notes',
      { treatmentPlanNotes: 'Upper only' },
      edited({ treatmentPlanNotes: 'Upper only' }),
    ],
    ['due date', { deliveryDate: '2025-06-01' }, edited({ deliveryDate: '2025-06-01' })],
    ['due date removed', { deliveryDate: '' }, edited({ deliveryDate: null })],
    [
      'simulation video URL, trimmed',
      { simulationVideoUrl: ' https://v.example/1 ' },
      edited({ simulationVideoUrl: 'https://v.example/1' }),
    ],
    [
      'external link',
      { simulationExternalLink: 'http://3d.example/x' },
      edited({ simulationExternalLink: 'http://3d.example/x' }),
    ],
    [
      'only changed fields are recorded',
      { patientName: 'Jane Doe', priority: 'High', clinicName: 'Smile Clinic' },
      edited({ priority: 'High' }),
    ],
    ['nothing changed → no events', { patientName: 'Jane Doe', priority: 'Normal' }, accepted()],
    ['empty edit → no events', {}, accepted()],
    [
      'unchanged workflow fields may be sent',
      { status: 'Model Printing', id: 'CA-2025-123', onHold: false, price: 1200, patientName: 'X' },
      edited({ patientName: 'X' }),
    ],
    ['version and expectedVersion are ignored', { version: 99, expectedVersion: 3 }, accepted()],
    [
      'a changed status',
      { status: 'Completed' },
      refused('invalid', '"status" cannot be changed by Edit Case.'),
    ],
    ['a changed price', { price: 1 }, refused('invalid', '"price" cannot be changed by Edit Case.')],
    ['a changed onHold', { onHold: true }, refused('invalid', '"onHold" cannot be changed by Edit Case.')],
    [
      'a changed assigned doctor',
      { assignedDoctorUsername: 'dr.patel' },
      refused('invalid', '"assignedDoctorUsername" cannot be changed by Edit Case.'),
    ],
    [
      'an unknown field',
      { favouriteColour: 'blue' },
      refused('invalid', '"favouriteColour" cannot be changed by Edit Case.'),
    ],
    ['an empty patient name', { patientName: '  ' }, refused('invalid', 'Patient name is required.')],
    [
      'a priority outside the list',
      { priority: 'Urgent' },
      refused('invalid', 'Priority must be Normal or High.'),
    ],
    [
      'a due date that is not a date',
      { deliveryDate: '31/12/2025' },
      refused('invalid', 'Due date must be a date (YYYY-MM-DD).'),
    ],
    [
      'a non-http link',
      { simulationVideoUrl: 'ftp://v.example/1' },
      refused('invalid', 'Simulation Video URL must be an http(s) URL.'),
    ],
    [
      'a javascript: link',
      { simulationExternalLink: 'javascript:alert(1)' },
      refused('invalid', 'External Simulation Link must be an http(s) URL.'),
    ],
  ])('%s', (_label, fields, expected) => {
    const decision = run(state, edit(fields));
    if (expected.ok) expect(decision).toEqual(expected);
    else expect(decision).toMatchObject(expected);
  });

  it('reports every problem in the details', () => {
    expect(run(state, edit({ patientName: '', status: 'Completed', priority: 'x' }))).toEqual({
      ok: false,
      rejection: {
        kind: 'invalid',
        message: 'Patient name is required.',
        details: [
          'Patient name is required.',
          '"status" cannot be changed by Edit Case.',
          'Priority must be Normal or High.',
        ],
      },
    });
  });

  it('accepts the whole case sent back with one field changed (PUT /cases/{id})', () => {
    const sent = { ...JSON.parse(JSON.stringify(state)), patientName: 'John Roe' };
    expect(run(state, edit(sent))).toEqual(edited({ patientName: 'John Roe' }));
  });

  it.each(ROLES.filter((role) => role !== 'Manager'))('a %s cannot edit', (role) => {
    expect(run(state, edit({ patientName: 'X' }), BY_ROLE[role])).toEqual(managerOnly);
  });

  it('checks the role before the input', () => {
    expect(run(state, edit({ status: 'Completed' }), rep)).toEqual(managerOnly);
  });

  it('an empty link removes its file entry; a link adds or replaces it', () => {
    const video: CaseFile = {
      name: 'Simulation Video',
      type: 'Simulation Video',
      url: 'https://v.example/1',
      size: 'Link',
    };
    const external: CaseFile = {
      name: 'External Simulation',
      type: 'External Link',
      url: 'https://3d.example/1',
      size: 'Link',
    };
    const stl: CaseFile = { name: 'upper.stl', type: 'STL', url: '/u/upper.stl', size: '1.00 MB' };
    const withLinks = caseAt('Digital Planning');
    const start = given(
      E.created({ files: [stl] }),
      E.approved(),
      E.links('https://v.example/1', 'https://3d.example/1'),
    );
    expect(withLinks.files).toEqual([]);
    expect(start.files).toEqual([stl, video, external]);

    const cleared = apply(start, run(start, edit({ simulationVideoUrl: '' })));
    expect(cleared.simulationVideoUrl).toBe('');
    expect(cleared.files).toEqual([stl, external]);

    const replaced = apply(cleared, run(cleared, edit({ simulationExternalLink: 'https://3d.example/2' })));
    expect(replaced.files).toEqual([stl, { ...external, url: 'https://3d.example/2' }]);

    const renamed = apply(replaced, run(replaced, edit({ patientName: 'John Roe' })));
    expect(renamed.files).toEqual(replaced.files);
    expect(renamed.patientName).toBe('John Roe');
  });

  it('an edit of another field leaves uploaded link-typed files alone', () => {
    const uploaded: CaseFile = {
      name: 'plan.mp4',
      type: 'Simulation Video',
      url: '/u/plan.mp4',
      size: '9.00 MB',
    };
    const start = given(E.created({ files: [uploaded] }));
    const renamed = apply(start, run(start, edit({ patientName: 'John Roe' })));
    expect(renamed.files).toEqual([uploaded]);
  });
});

describe('UpdatePricing (Manager and Representative)', () => {
  const pricing = (price: unknown, upperSheets: unknown, lowerSheets: unknown): CaseCommand => ({
    type: 'UpdatePricing',
    price,
    upperSheets,
    lowerSheets,
  });
  const updated = (price: number | null, upperSheets: number | null, lowerSheets: number | null) =>
    accepted({ type: 'PricingUpdated', data: { price, upperSheets, lowerSheets } });
  const state = caseAt('Digital Planning'); // price 1200, sheets 3 / 2

  it.each<[string, [unknown, unknown, unknown], Decision]>([
    ['numbers', [1500, 20, 18], updated(1500, 20, 18)],
    ['numeric strings', ['1500.50', '20', '18'], updated(1500.5, 20, 18)],
    ['strings with spaces', [' 99.90 ', ' 7 ', '0'], updated(99.9, 7, 0)],
    ["'abc' and '' are absent", ['abc', '', ''], updated(null, null, null)],
    ['null and undefined are absent', [null, undefined, null], updated(null, null, null)],
    ['fractional sheets are absent', [1200, '2.5', 1.5], updated(1200, null, null)],
    ['price rounded to cents', [10.129, 3, 2], updated(10.13, 3, 2)],
    ['zero is a price', [0, 3, 2], updated(0, 3, 2)],
    ['unchanged → no events', [1200, 3, 2], accepted()],
    ['unchanged as strings → no events', ['1200.00', '3', '2'], accepted()],
    ['a negative price', [-1, 3, 2], refused('invalid', 'Price must be between 0 and 1000000.')],
    ['a negative price as text', ['-0.5', 3, 2], refused('invalid', 'Price must be between 0 and 1000000.')],
    ['a price too high', [1_000_001, 3, 2], refused('invalid', 'Price must be between 0 and 1000000.')],
    [
      'negative sheets',
      [1200, -3, 2],
      refused('invalid', 'Sheet counts must be whole numbers between 0 and 200.'),
    ],
    [
      'too many sheets',
      [1200, 3, '201'],
      refused('invalid', 'Sheet counts must be whole numbers between 0 and 200.'),
    ],
  ])('%s', (_label, [price, upper, lower], expected) => {
    expect(run(state, pricing(price, upper, lower))).toEqual(expected);
  });

  it.each<[Role, boolean]>([
    ['Manager', true],
    ['Representative', true],
    ['Designer', false],
    ['Technician', false],
    ['Doctor', false],
  ])('a %s may edit pricing: %s', (role, allowed) => {
    expect(run(state, pricing(1300, 3, 2), BY_ROLE[role])).toEqual(
      allowed
        ? updated(1300, 3, 2)
        : refused('forbidden', 'Only a Manager or a Representative can edit pricing.'),
    );
  });

  it('checkPricing alone gives the same answers', () => {
    expect(checkPricing({ price: '12', upperSheets: 'x' })).toEqual({
      value: { price: 12, upperSheets: null, lowerSheets: null },
    });
  });

  it('stores the values on the case', () => {
    const next = apply(state, run(state, pricing('1500.50', '20', '')));
    expect([next.price, next.upperSheets, next.lowerSheets]).toEqual([1500.5, 20, null]);
  });
});

describe('SaveSimulationLinks (Digital Planning only, Designer or Manager, http(s) only)', () => {
  const save = (simulationVideoUrl: unknown, simulationExternalLink: unknown): CaseCommand => ({
    type: 'SaveSimulationLinks',
    simulationVideoUrl,
    simulationExternalLink,
  });
  const saved = (video: string, external: string) => accepted(E.links(video, external));
  const onlyAtDp = refused('conflict', 'Simulation links can only be saved at Digital Planning.');
  const roles = refused('forbidden', 'Only a Designer or a Manager can save simulation links.');

  it.each<[string, Case, CaseCommand, Actor, Decision]>([
    [
      'a Designer saves both',
      caseAt('Digital Planning'),
      save('https://v.example/1', 'https://3d.example/1'),
      designer,
      saved('https://v.example/1', 'https://3d.example/1'),
    ],
    [
      'a Manager saves, trimmed',
      caseAt('Digital Planning'),
      save('  http://v.example/1 ', ' '),
      manager,
      saved('http://v.example/1', ''),
    ],
    ['both empty', caseAt('Digital Planning'), save('', undefined), designer, saved('', '')],
    [
      'an ftp link',
      caseAt('Digital Planning'),
      save('ftp://v.example/1', ''),
      designer,
      refused('invalid', 'Simulation Video URL must be an http(s) URL.'),
    ],
    [
      'not a URL',
      caseAt('Digital Planning'),
      save('', 'www.example.com'),
      designer,
      refused('invalid', 'External Simulation Link must be an http(s) URL.'),
    ],
    [
      'a javascript: URL',
      caseAt('Digital Planning'),
      save('javascript:alert(1)', ''),
      designer,
      refused('invalid', 'Simulation Video URL must be an http(s) URL.'),
    ],
    [
      'a link that is not text',
      caseAt('Digital Planning'),
      save(5, ''),
      designer,
      refused('invalid', 'Simulation Video URL must be text.'),
    ],
    ['a Technician', caseAt('Digital Planning'), save('https://v.example/1', ''), tech, roles],
    ['a Representative', caseAt('Digital Planning'), save('https://v.example/1', ''), rep, roles],
    ['the assigned Doctor', caseAt('Digital Planning'), save('https://v.example/1', ''), drLee, roles],
    ['another doctor', caseAt('Digital Planning'), save('https://v.example/1', ''), drPatel, notFound],
    ['at Doctor Approval', caseAt('Doctor Approval'), save('https://v.example/1', ''), designer, onlyAtDp],
    ['at Pending Approval', caseAt('Pending Approval'), save('https://v.example/1', ''), manager, onlyAtDp],
    [
      'at Model Printing, wrong role',
      caseAt('Model Printing'),
      save('https://v.example/1', ''),
      tech,
      onlyAtDp,
    ],
    ['while held', caseAt('Digital Planning', E.held()), save('https://v.example/1', ''), designer, onHold],
    [
      'while held, wrong role',
      caseAt('Digital Planning', E.held()),
      save('https://v.example/1', ''),
      tech,
      onHold,
    ],
    ['wrong role before a bad link', caseAt('Digital Planning'), save('ftp://x', ''), rep, roles],
  ])('%s', (_label, state, command, actor, expected) => {
    expect(run(state, command, actor)).toEqual(expected);
  });

  it('adds, replaces and removes the link file entries, keeping the other files', () => {
    const stl: CaseFile = { name: 'lower.stl', type: 'STL', url: '/u/lower.stl', size: '2.00 MB' };
    const state = given(E.created({ files: [stl] }), E.approved());
    const first = apply(
      state,
      run(state, save('https://v.example/1', 'https://3d.example/1'), designer),
      designer,
    );
    expect(first.simulationVideoUrl).toBe('https://v.example/1');
    expect(first.simulationExternalLink).toBe('https://3d.example/1');
    expect(first.files).toEqual([
      stl,
      { name: 'Simulation Video', type: 'Simulation Video', url: 'https://v.example/1', size: 'Link' },
      { name: 'External Simulation', type: 'External Link', url: 'https://3d.example/1', size: 'Link' },
    ]);
    const second = apply(first, run(first, save('https://v.example/2', ''), designer), designer);
    expect(second.files).toEqual([
      stl,
      { name: 'Simulation Video', type: 'Simulation Video', url: 'https://v.example/2', size: 'Link' },
    ]);
    const cleared = apply(second, run(second, save('', ''), designer), designer);
    expect(cleared.files).toEqual([stl]);
  });
});

describe('ReassignStage (Manager only, not while held)', () => {
  const reassign = (stage: string, assignee: unknown, assigneeIsLabUser = true): CaseCommand => ({
    type: 'ReassignStage',
    stage,
    assignee,
    assigneeIsLabUser,
  });
  const changed = (stage: CaseStatus, assignee: string) => accepted(E.assignee(stage, assignee));
  const state = caseAt('Thermoforming');

  it.each<[string, Case, CaseCommand, Actor, Decision]>([
    [
      'the current stage to a technician',
      state,
      reassign('Thermoforming', 'tech'),
      manager,
      changed('Thermoforming', 'tech'),
    ],
    [
      'a later stage by its internal name',
      state,
      reassign('QualityCheck', 'tech2'),
      manager,
      changed('Quality Check', 'tech2'),
    ],
    [
      'the short Delivery reading',
      state,
      reassign('Delivery', 'rep'),
      manager,
      changed('Delivery to Doctor', 'rep'),
    ],
    [
      'the assignee trimmed',
      state,
      reassign('Thermoforming', '  tech '),
      manager,
      changed('Thermoforming', 'tech'),
    ],
    [
      'back to Unassigned (not a lab user)',
      state,
      reassign('Thermoforming', 'Unassigned', false),
      manager,
      changed('Thermoforming', 'Unassigned'),
    ],
    [
      'to the same assignee → no events',
      state,
      reassign('Thermoforming', 'Tech Team', false),
      manager,
      accepted(),
    ],
    [
      'an unknown stage',
      state,
      reassign('Design', 'tech'),
      manager,
      refused('invalid', 'Unknown workflow stage "Design".'),
    ],
    [
      'Rejected is not a stage',
      state,
      reassign('Rejected', 'tech'),
      manager,
      refused('invalid', 'Unknown workflow stage "Rejected".'),
    ],
    [
      'no assignee',
      state,
      reassign('Thermoforming', ''),
      manager,
      refused('invalid', 'Choose who the stage is assigned to.'),
    ],
    [
      'an assignee that is not text',
      state,
      reassign('Thermoforming', 7),
      manager,
      refused('invalid', 'Assignee must be text.'),
    ],
    [
      'someone who is not a lab user',
      state,
      reassign('Thermoforming', 'ghost', false),
      manager,
      refused('invalid', '"ghost" is not a lab user.'),
    ],
    ['a Technician', state, reassign('Thermoforming', 'tech'), tech, managerOnly],
    ['a Representative', state, reassign('Thermoforming', 'tech'), rep, managerOnly],
    ['a Designer', state, reassign('Thermoforming', 'tech'), designer, managerOnly],
    ['the assigned Doctor', state, reassign('Thermoforming', 'tech'), drLee, managerOnly],
    ['another doctor', state, reassign('Thermoforming', 'tech'), drPatel, notFound],
    ['while held', caseAt('Thermoforming', E.held()), reassign('Thermoforming', 'tech'), manager, onHold],
    [
      'while held, wrong role',
      caseAt('Thermoforming', E.held()),
      reassign('Thermoforming', 'tech'),
      tech,
      onHold,
    ],
    ['wrong role before an unknown stage', state, reassign('Design', 'tech'), rep, managerOnly],
  ])('%s', (_label, given_, command, actor, expected) => {
    expect(run(given_, command, actor)).toEqual(expected);
  });

  it('sets the step, lists the technician (replacing "Unassigned") and notes who did it', () => {
    const first = apply(state, run(state, reassign('Thermoforming', 'tech')));
    expect(first.alignerWorkflow.find((step) => step.name === 'Thermoforming')?.assignedTo).toBe('tech');
    expect(first.assignedTechnicians).toEqual(['tech']);
    expect(first.notes.at(-1)).toMatchObject({
      author: 'admin',
      text: 'Thermoforming reassigned to tech by admin.',
    });

    const second = apply(first, run(first, reassign('Quality Check', 'tech2')));
    expect(second.assignedTechnicians).toEqual(['tech', 'tech2']);
    const again = apply(second, run(second, reassign('Model Printing', 'tech')));
    expect(again.assignedTechnicians).toEqual(['tech', 'tech2']);

    const placeholder = apply(again, run(again, reassign('Thermoforming', 'Tech Team', false)));
    expect(placeholder.assignedTechnicians).toEqual(['tech', 'tech2']);
    expect(placeholder.alignerWorkflow.find((step) => step.name === 'Thermoforming')?.assignedTo).toBe(
      'Tech Team',
    );
  });
});

describe('GenerateCaseQr (users allowed to act on the case; a Technician self-assigns)', () => {
  const qr: CaseCommand = { type: 'GenerateCaseQr' };
  const notYet = refused('conflict', 'The case QR code is available once the case is approved.');
  const qrRoles = refused('forbidden', 'Only users who can act on this case can show its QR code.');
  const selfAssigned = (stage: CaseStatus, technician: string) =>
    accepted(E.assignee(stage, technician, true));
  const kept = (stage: CaseStatus, owner: string) =>
    accepted({ type: 'QrAssignmentKept', data: { stage, owner } });

  it.each<[string, Case, Actor, Decision]>([
    [
      'a Technician takes a Tech Team stage',
      caseAt('Model Printing'),
      tech,
      selfAssigned('Model Printing', 'tech'),
    ],
    [
      'a Technician takes an Unassigned stage',
      caseAt('Quality Check', E.assignee('Quality Check', 'Unassigned')),
      tech,
      selfAssigned('Quality Check', 'tech'),
    ],
    [
      "someone else's stage only gets a note",
      caseAt('Thermoforming', E.assignee('Thermoforming', 'tech2')),
      tech,
      kept('Thermoforming', 'tech2'),
    ],
    ['own stage → no events', caseAt('Thermoforming', E.assignee('Thermoforming', 'tech')), tech, accepted()],
    ['held → no events', caseAt('Model Printing', E.held()), tech, accepted()],
    ['a Manager → no events', caseAt('Model Printing'), manager, accepted()],
    ['a Manager at Completed', caseAt('Completed'), manager, accepted()],
    ['a Manager at Doctor Approval', caseAt('Doctor Approval'), manager, accepted()],
    ['a Designer at Digital Planning', caseAt('Digital Planning'), designer, accepted()],
    ['a Representative at Packaging', caseAt('Packaging & Labeling'), rep, accepted()],
    ['a Technician at Digital Planning', caseAt('Digital Planning'), tech, qrRoles],
    ['a Technician at Delivery', caseAt('Delivery to Doctor'), tech, qrRoles],
    ['a Technician at Completed', caseAt('Completed'), tech, qrRoles],
    ['a Designer at Model Printing', caseAt('Model Printing'), designer, qrRoles],
    ['the assigned Doctor', caseAt('Model Printing'), drLee, qrRoles],
    ['the assigned Doctor at Doctor Approval', caseAt('Doctor Approval'), drLee, qrRoles],
    ['another doctor', caseAt('Model Printing'), drPatel, notFound],
    ['at Pending Approval', caseAt('Pending Approval'), manager, notYet],
    ['at Pending Approval, a Technician', caseAt('Pending Approval'), tech, notYet],
    ['a Rejected case', caseAt('Rejected'), manager, notYet],
  ])('%s', (_label, state, actor, expected) => {
    expect(run(state, qr, actor)).toEqual(expected);
  });

  it('self-assignment sets the step, replaces "Unassigned" in the technicians and notes it', () => {
    const state = caseAt('Model Printing');
    expect(state.assignedTechnicians).toEqual(['Unassigned']);
    const next = apply(state, run(state, qr, tech), tech);
    expect(next.alignerWorkflow.find((step) => step.name === 'Model Printing')?.assignedTo).toBe('tech');
    expect(next.assignedTechnicians).toEqual(['tech']);
    expect(next.notes.at(-1)).toMatchObject({
      author: 'tech',
      role: 'Technician',
      text: 'tech took Model Printing by generating the case QR code.',
    });
  });

  it("someone else's stage stays theirs; only a note is added", () => {
    const state = caseAt('Thermoforming', E.assignee('Thermoforming', 'tech2'));
    const next = apply(state, run(state, qr, tech), tech);
    expect(next.alignerWorkflow).toEqual(state.alignerWorkflow);
    expect(next.assignedTechnicians).toEqual(state.assignedTechnicians);
    expect(next.notes).toHaveLength(state.notes.length + 1);
    expect(next.notes.at(-1)?.text).toBe(
      'tech generated the case QR code; Thermoforming stays assigned to tech2.',
    );
  });
});

describe('AddNote (anyone who can see the case)', () => {
  const note = (text: unknown): CaseCommand => ({ type: 'AddNote', text });

  it.each<[string, Case, unknown, Actor, Decision]>([
    ...ROLES.map(
      (role) =>
        [
          `a ${role}`,
          caseAt('Quality Check'),
          'Checked',
          BY_ROLE[role],
          accepted({ type: 'NoteAdded', data: { text: 'Checked' } }),
        ] as [string, Case, unknown, Actor, Decision],
    ),
    [
      'trimmed',
      caseAt('Quality Check'),
      '  Call the clinic \n',
      tech,
      accepted({ type: 'NoteAdded', data: { text: 'Call the clinic' } }),
    ],
    [
      'multi-line kept',
      caseAt('Quality Check'),
      'a\nb',
      tech,
      accepted({ type: 'NoteAdded', data: { text: 'a\nb' } }),
    ],
    [
      'while held',
      caseAt('Quality Check', E.held()),
      'Why held?',
      tech,
      accepted({ type: 'NoteAdded', data: { text: 'Why held?' } }),
    ],
    [
      'on a Rejected case',
      caseAt('Rejected'),
      'FYI',
      manager,
      accepted({ type: 'NoteAdded', data: { text: 'FYI' } }),
    ],
    ['empty', caseAt('Quality Check'), '', tech, refused('invalid', 'Note cannot be empty.')],
    ['blank', caseAt('Quality Check'), ' \n\t ', tech, refused('invalid', 'Note cannot be empty.')],
    ['missing', caseAt('Quality Check'), undefined, tech, refused('invalid', 'Note cannot be empty.')],
    ['not text', caseAt('Quality Check'), { text: 'x' }, tech, refused('invalid', 'Note must be text.')],
    [
      'too long',
      caseAt('Quality Check'),
      'x'.repeat(5001),
      tech,
      refused('invalid', 'Note must be at most 5000 characters.'),
    ],
    ['another doctor', caseAt('Quality Check'), 'Hi', drPatel, notFound],
  ])('%s', (_label, state, text, actor, expected) => {
    expect(run(state, note(text), actor)).toEqual(expected);
  });

  it('appends the note with author, role and time', () => {
    const state = caseAt('Quality Check');
    const next = apply(state, run(state, note(' Done '), tech), tech);
    expect(next.notes).toHaveLength(state.notes.length + 1);
    expect(next.notes.at(-1)).toEqual({
      id: `note-${Date.parse(NOW)}-${next.version}`,
      author: 'tech',
      role: 'Technician',
      text: 'Done',
      timestamp: NOW,
    });
  });
});

describe('the bounds on notes per case (10,000 notes, 5,000,000 characters in all)', () => {
  const note = (text: unknown): CaseCommand => ({ type: 'AddNote', text });
  /** A case whose notes are `count` notes of `length` characters each. */
  function withNotes(state: Case, count: number, length = 10): Case {
    const notes = Array.from({ length: count }, (_, index) => ({
      id: `note-${index}`,
      author: 'tech',
      role: 'Technician',
      text: 'n'.repeat(length),
      timestamp: NOW,
    }));
    return { ...state, notes };
  }
  const full = refused(
    'conflict',
    'This case has reached its limit of 10,000 notes. No more notes can be added.',
  );
  const tooLarge = refused(
    'conflict',
    'The notes of this case have reached their limit of 5,000,000 characters in all. No more notes can be added.',
  );

  it('names the limits in CASE_TEXTS', () => {
    expect(CASE_TEXTS.tooManyNotes(LIMITS.notesPerCase)).toBe(
      'This case has reached its limit of 10,000 notes. No more notes can be added.',
    );
    expect(LIMITS.notesPerCase).toBeGreaterThanOrEqual(5_000);
    expect(LIMITS.notesTextPerCase).toBe(5_000_000);
  });

  it('takes the 10,000th note and refuses the 10,001st with 409', () => {
    const almost = withNotes(caseAt('Quality Check'), 9_999);
    const filled = apply(almost, run(almost, note('Last one'), tech), tech);
    expect(filled.notes).toHaveLength(10_000);
    expect(run(filled, note('One more'), tech)).toEqual(full);
  });

  it('refuses a note that would take the text past 5,000,000 characters, and takes one that just fits', () => {
    // 1,000 notes of 4,999 characters: 4,999,000 characters, 1,000 left.
    const state = withNotes(caseAt('Quality Check'), 1_000, 4_999);
    expect(notesTextLength(state.notes)).toBe(4_999_000);
    expect(run(state, note('x'.repeat(1_001)), tech)).toEqual(tooLarge);
    expect(run(state, note('x'.repeat(1_000)), tech)).toEqual(
      accepted({ type: 'NoteAdded', data: { text: 'x'.repeat(1_000) } }),
    );
  });

  it('keeps the single-note limit and the empty-note check ahead of the bound', () => {
    const filled = withNotes(caseAt('Quality Check'), 10_000);
    expect(run(filled, note('x'.repeat(5001)), tech)).toEqual(
      refused('invalid', 'Note must be at most 5000 characters.'),
    );
    expect(run(filled, note(' '), tech)).toEqual(refused('invalid', 'Note cannot be empty.'));
  });

  it('never fails a command for the notes the workflow writes itself: they are left out at the bound', () => {
    const pending = withNotes(caseAt('Pending Approval'), 10_000);
    const approve: CaseCommand = {
      type: 'ApproveCase',
      doctorUsername: 'dr.lee',
      doctor: { username: 'dr.lee', role: 'Doctor' },
    };
    const approved = apply(pending, run(pending, approve));
    expect(approved.status).toBe('Digital Planning');
    expect(approved.notes).toHaveLength(10_000);
    expect(approved.notes.at(-1)!.id).toBe('note-9999');

    const rejected = apply(pending, run(pending, { type: 'RejectCase', reason: 'Scan unusable' }));
    expect(rejected.status).toBe('Rejected');
    expect(rejected.notes).toHaveLength(10_000);

    const working = withNotes(caseAt('Thermoforming'), 10_000);
    const reassigned = apply(
      working,
      run(working, {
        type: 'ReassignStage',
        stage: 'Thermoforming',
        assignee: 'tech2',
        assigneeIsLabUser: true,
      }),
    );
    expect(reassigned.alignerWorkflow.find((step) => step.name === 'Thermoforming')!.assignedTo).toBe(
      'tech2',
    );
    expect(reassigned.notes).toHaveLength(10_000);

    const review = withNotes(caseAt('Doctor Approval'), 1_000, 4_999);
    const comment = 'c'.repeat(1_500);
    const changes = apply(review, run(review, { type: 'RequestChanges', comment }, drLee), drLee);
    expect(changes.status).toBe('Digital Planning');
    expect(notesTextLength(changes.notes)).toBe(4_999_000);
  });

  it('holds on a snapshot state, whose earlier notes are counted, not read (Case.earlierNotes)', () => {
    const snapshotOf = (state: Case): Case => ({
      ...state,
      notes: [],
      earlierNotes: { count: state.notes.length, textLength: notesTextLength(state.notes) },
    });
    const filled = snapshotOf(withNotes(caseAt('Quality Check'), 10_000));
    expect(run(filled, note('One more'), tech)).toEqual(full);
    const large = snapshotOf(withNotes(caseAt('Quality Check'), 1_000, 4_999));
    expect(run(large, note('x'.repeat(1_001)), tech)).toEqual(tooLarge);

    // Below the bounds a note is taken, and evolve adds it after the earlier ones.
    const almost = snapshotOf(withNotes(caseAt('Quality Check'), 9_999));
    const noted = apply(almost, run(almost, note('Last one'), tech), tech);
    expect(noted.notes.map((item) => item.text)).toEqual(['Last one']);
    expect(notesSize(noted)).toEqual({ count: 10_000, textLength: notesSize(almost).textLength + 8 });
    // At the bound the workflow's own note is left out, as on the whole case.
    const pending = snapshotOf(withNotes(caseAt('Pending Approval'), 10_000));
    const approve: CaseCommand = {
      type: 'ApproveCase',
      doctorUsername: 'dr.lee',
      doctor: { username: 'dr.lee', role: 'Doctor' },
    };
    expect(apply(pending, run(pending, approve)).notes).toEqual([]);
  });

  it('still writes the workflow note below the bound', () => {
    const pending = withNotes(caseAt('Pending Approval'), 9_999);
    const approve: CaseCommand = {
      type: 'ApproveCase',
      doctorUsername: 'dr.lee',
      doctor: { username: 'dr.lee', role: 'Doctor' },
    };
    const approved = apply(pending, run(pending, approve));
    expect(approved.notes).toHaveLength(10_000);
    expect(approved.notes.at(-1)!.text).toBe('Case approved by admin and assigned to doctor dr.lee.');
  });
});

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
