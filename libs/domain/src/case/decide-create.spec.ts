import type { Actor, Role } from '../permissions/roles.js';
import type { Case } from './case.js';
import { type NewCaseInput } from './commands.js';
import { decide } from './decide.js';
import { type Decision } from './decision.js';
import { checkNewCase } from './input-checks.js';
import type { CaseEventData } from './events.js';
import { CASE_STATUSES } from './status.js';
import { CASE_TEXTS } from './texts.js';
import {
  BY_ROLE,
  type CreatedData,
  E,
  NOW,
  accepted,
  apply,
  drLee,
  given,
  manager,
  refused,
  rep,
  run,
  tech,
  time,
} from '../testing/case-fixtures.js';

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
