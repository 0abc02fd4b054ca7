import type { Actor, Role } from '../permissions/roles.js';
import type { Case } from './case.js';
import type { CaseCommand } from './commands.js';
import type { Decision } from './decision.js';
import { CASE_STATUSES } from './status.js';
import {
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
  onHold,
  refused,
  rep,
  run,
  tech,
} from '../testing/case-fixtures.js';

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
