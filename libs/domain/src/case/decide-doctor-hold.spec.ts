import type { Actor } from '../permissions/roles.js';
import type { Case } from './case.js';
import type { CaseCommand } from './commands.js';
import type { Decision } from './decision.js';
import { ALL_CASE_STATUSES, CASE_STATUSES } from './status.js';
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
  managerOnly,
  notFound,
  onHold,
  refused,
  rep,
  run,
  tech,
} from '../testing/case-fixtures.js';

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
