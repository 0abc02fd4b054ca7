import {
  completedCase,
  designer,
  drLee,
  drPatel,
  fold,
  created,
  approved,
  manager,
  representative,
  technician,
  time,
} from '../testing/case-work-fixtures.js';
import { decide } from './decide.js';
import { checkReorder, followUpCreated } from './decide-reorder.js';
import { evolve } from './evolve.js';
import { CASE_TEXTS, CASE_WORK_TEXTS } from './texts.js';
import type { Actor } from '../permissions/roles.js';

const order = (input: Record<string, unknown>, actor: Actor = manager, state = completedCase()) =>
  decide(state, { type: 'OrderFollowUp', newCaseId: 'CA-2025-777', input }, actor, time(100));

describe('ordering a remake or refinement', () => {
  it('a Manager orders a remake of a completed case: FollowUpOrdered names the new case', () => {
    expect(order({ kind: 'remake', reasonCode: 'broken', reason: 'Cracked upper 3' })).toEqual({
      ok: true,
      events: [
        {
          type: 'FollowUpOrdered',
          data: { caseId: 'CA-2025-777', kind: 'remake', reasonCode: 'broken', reason: 'Cracked upper 3' },
        },
      ],
    });
  });

  it("the case's doctor may order a refinement without a reason code", () => {
    const decision = order({ kind: 'refinement' }, drLee);
    expect(decision).toEqual({
      ok: true,
      events: [
        {
          type: 'FollowUpOrdered',
          data: { caseId: 'CA-2025-777', kind: 'refinement', reasonCode: null, reason: '' },
        },
      ],
    });
  });

  it('another doctor is told the case does not exist', () => {
    expect(order({ kind: 'remake', reasonCode: 'lost' }, drPatel)).toEqual({
      ok: false,
      rejection: { kind: 'not_found', message: CASE_TEXTS.notFound },
    });
  });

  it.each([designer, technician, representative])('%o may not order one', (actor) => {
    expect(order({ kind: 'remake', reasonCode: 'lost' }, actor)).toEqual({
      ok: false,
      rejection: { kind: 'forbidden', message: CASE_WORK_TEXTS.reorderRoles },
    });
  });

  it('only a completed case can be reordered, whoever asks (409 before the role)', () => {
    const active = fold(created, approved);
    for (const actor of [manager, designer]) {
      expect(order({ kind: 'remake', reasonCode: 'lost' }, actor, active)).toEqual({
        ok: false,
        rejection: { kind: 'conflict', message: CASE_WORK_TEXTS.reorderOnlyCompleted },
      });
    }
  });

  it.each([
    [{ kind: 'redo' }, CASE_WORK_TEXTS.reorderKind],
    [{}, CASE_WORK_TEXTS.reorderKind],
    [{ kind: 'remake' }, CASE_WORK_TEXTS.reasonCode],
    [{ kind: 'remake', reasonCode: 'bored' }, CASE_WORK_TEXTS.reasonCode],
    [{ kind: 'refinement', reasonCode: 'bored' }, CASE_WORK_TEXTS.reasonCode],
    [{ kind: 'remake', reasonCode: 'other' }, CASE_WORK_TEXTS.otherReasonRequired],
    [{ kind: 'remake', reasonCode: 'other', reason: '   ' }, CASE_WORK_TEXTS.otherReasonRequired],
    [
      { kind: 'remake', reasonCode: 'lost', reason: 'x'.repeat(2001) },
      'Reason must be at most 2000 characters.',
    ],
  ])('bad input %j → 400 %s', (input, message) => {
    const decision = order(input);
    expect(decision.ok).toBe(false);
    if (!decision.ok) expect(decision.rejection).toMatchObject({ kind: 'invalid', message });
  });

  it('the reason is trimmed; "other" with a reason is accepted', () => {
    expect(checkReorder({ kind: 'remake', reasonCode: 'other', reason: '  Dog ate it ' })).toEqual({
      value: { kind: 'remake', reasonCode: 'other', reason: 'Dog ate it' },
    });
  });

  it('the new case copies patient, doctor, clinic and doctor username and records its origin', () => {
    const original = completedCase();
    const withDoctor = { ...original, assignedDoctorUsername: 'dr.lee' };
    const data = followUpCreated(
      withDoctor,
      { caseId: 'CA-2025-777', kind: 'remake', reasonCode: 'poor_fit', reason: 'Loose' },
      time(100),
    );
    const theCase = evolve(null, { type: 'CaseCreated', data, actor: drLee, at: time(100) });
    expect(theCase).toMatchObject({
      id: 'CA-2025-777',
      status: 'Pending Approval',
      patientName: original.patientName,
      doctorName: original.doctorName,
      clinicName: original.clinicName,
      assignedDoctorUsername: 'dr.lee',
      files: [],
      fee: null,
      origin: { caseId: original.id, kind: 'remake', reasonCode: 'poor_fit', reason: 'Loose' },
      followUps: [],
      planVersions: [],
    });
  });

  it('the original lists its follow-ups in order', () => {
    let state = completedCase();
    for (const [caseId, kind] of [
      ['CA-2025-777', 'remake'],
      ['CA-2025-778', 'refinement'],
    ] as const) {
      state = evolve(state, {
        type: 'FollowUpOrdered',
        data: { caseId, kind, reasonCode: null, reason: '' },
        actor: manager,
        at: time(200),
      });
    }
    expect(state.followUps).toEqual([
      { caseId: 'CA-2025-777', kind: 'remake' },
      { caseId: 'CA-2025-778', kind: 'refinement' },
    ]);
    expect(state.status).toBe('Completed');
  });
});
