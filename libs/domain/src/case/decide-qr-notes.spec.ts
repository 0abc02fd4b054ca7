import type { Actor } from '../permissions/roles.js';
import { LIMITS } from '../validation/validation.js';
import type { Case } from './case.js';
import type { CaseCommand } from './commands.js';
import type { Decision } from './decision.js';
import { notesSize, notesTextLength } from './notes-bound.js';
import type { CaseStatus } from './status.js';
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
  refused,
  rep,
  run,
  tech,
} from '../testing/case-fixtures.js';

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
