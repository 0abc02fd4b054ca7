import type { Case } from './case.js';
import { decide, localDay } from './decide.js';
import type { CaseEvent, CaseEventData } from './events.js';
import { evolve, foldCase } from './evolve.js';
import { SYSTEM_ACTOR } from './history.js';
import { CASE_TEXTS } from './texts.js';
import { alertsFor, RISK_ALERT_TEXTS } from '../notifications/policy.js';
import type { Actor } from '../permissions/roles.js';

const manager: Actor = { username: 'admin', role: 'Manager' };
const CREATED_AT = new Date(2025, 2, 1, 9).toISOString();

/** A case in Thermoforming due on 20 March 2025 (local days), made by its events. */
function caseDue(deliveryDate: string | null, extra: CaseEventData[] = []): Case {
  const events: CaseEventData[] = [
    {
      type: 'CaseCreated',
      data: {
        id: 'CA-2025-321',
        patientName: 'Jane Doe',
        doctorName: 'Dr. Lee',
        clinicName: 'Smile',
        priority: 'Normal',
        deliveryDate,
        treatmentPlanNotes: '',
        files: [],
        price: null,
        upperSheets: 10,
        lowerSheets: 10,
        assignedDoctorUsername: 'dr.lee',
        fee: null,
      },
    },
    { type: 'CaseApproved', data: { doctorUsername: 'dr.lee' } },
    { type: 'StageAdvanced', data: { from: 'Digital Planning', to: 'Doctor Approval' } },
    { type: 'TreatmentPlanApproved', data: {} },
    { type: 'StageAdvanced', data: { from: 'Model Printing', to: 'Thermoforming' } },
    ...extra,
  ];
  return foldCase(events.map((event) => ({ ...event, actor: manager, at: CREATED_AT }) as CaseEvent))!;
}

const at = (day: number, hour = 12) => new Date(2025, 2, day, hour).toISOString();
const flag = (state: Case, now: string, atRiskDays?: number) =>
  decide(state, { type: 'FlagAtRisk', atRiskDays }, SYSTEM_ACTOR, now);
const apply = (state: Case, now: string): Case => {
  const decision = flag(state, now);
  if (!decision.ok) throw new Error(decision.rejection.message);
  return decision.events.reduce(
    (current, event) => evolve(current, { ...event, actor: SYSTEM_ACTOR, at: now } as CaseEvent),
    state,
  );
};

describe('CaseAtRisk: the at-risk alert as an event of the case', () => {
  it('is decided for a case due within AT_RISK_DAYS, with its day and due date', () => {
    expect(flag(caseDue('2025-03-20'), at(19))).toEqual({
      ok: true,
      events: [
        { type: 'CaseAtRisk', data: { kind: 'at_risk', day: '2025-03-19', deliveryDate: '2025-03-20' } },
      ],
    });
    expect(flag(caseDue('2025-03-20'), at(18)).ok).toBe(true); // two days ahead: still in the window
  });

  it('is refused for a case not at risk: due later, held, without a due date, past production', () => {
    const notAtRisk = { ok: false, rejection: { kind: 'conflict', message: CASE_TEXTS.notAtRisk } };
    expect(flag(caseDue('2025-03-20'), at(17))).toEqual(notAtRisk);
    expect(flag(caseDue('2025-03-20', [{ type: 'CaseHeld', data: {} }]), at(19))).toEqual(notAtRisk);
    expect(flag(caseDue(null), at(19))).toEqual(notAtRisk);
    const packaging = caseDue('2025-03-20', [
      { type: 'StageAdvanced', data: { from: 'Thermoforming', to: 'Trimming & Polishing' } },
      { type: 'StageAdvanced', data: { from: 'Trimming & Polishing', to: 'Quality Check' } },
      { type: 'StageAdvanced', data: { from: 'Quality Check', to: 'Packaging & Labeling' } },
    ]);
    expect(flag(packaging, at(25))).toEqual(notAtRisk);
    // A wider window (AT_RISK_DAYS from the configuration) takes the case in earlier.
    expect(flag(caseDue('2025-03-20'), at(17), 3).ok).toBe(true);
  });

  it('is overdue once the due day has passed', () => {
    const decision = flag(caseDue('2025-03-20'), at(21));
    expect(decision).toMatchObject({ ok: true, events: [{ data: { kind: 'overdue', day: '2025-03-21' } }] });
  });

  it('is decided once per case, kind and day', () => {
    const alerted = apply(caseDue('2025-03-20'), at(19, 8));
    expect(flag(alerted, at(19, 23))).toEqual({
      ok: false,
      rejection: { kind: 'conflict', message: CASE_TEXTS.riskAlreadyAlerted('at_risk', '2025-03-19') },
    });
    // The next day is another alert; overdue is another kind.
    const nextDay = apply(alerted, at(20));
    expect(nextDay.riskAlerts).toEqual({ at_risk: '2025-03-20' });
    const overdue = apply(nextDay, at(21));
    expect(overdue.riskAlerts).toEqual({ at_risk: '2025-03-20', overdue: '2025-03-21' });
    expect(flag(overdue, at(21, 18)).ok).toBe(false);
  });

  it('changes nothing of the case but its version and the record of the alert', () => {
    const before = caseDue('2025-03-20');
    const after = apply(before, at(19));
    const { riskAlerts, version, ...rest } = after;
    const { version: versionBefore, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    expect(version).toBe(versionBefore + 1);
    expect(riskAlerts).toEqual({ at_risk: '2025-03-19' });
    // evolve does not touch the state it was given.
    expect(before.riskAlerts).toBeUndefined();
  });

  it('tells the managers, with the kind and its own text for overdue', () => {
    const state = caseDue('2025-03-20');
    const event = (kind: 'at_risk' | 'overdue'): CaseEvent => ({
      type: 'CaseAtRisk',
      data: { kind, day: '2025-03-21', deliveryDate: '2025-03-20' },
      actor: SYSTEM_ACTOR,
      at: at(21),
    });
    expect(alertsFor(event('at_risk'), state)).toEqual([
      {
        kind: 'manager_alert',
        audience: { roles: ['Manager'] },
        title: RISK_ALERT_TEXTS.atRiskTitle,
        body: 'CA-2025-321 for Jane Doe is due 2025-03-20 and is still at Thermoforming.',
        caseId: 'CA-2025-321',
        risk: 'at_risk',
      },
    ]);
    expect(alertsFor(event('overdue'), state, 'initials')).toEqual([
      expect.objectContaining({
        title: 'Case overdue',
        body: 'CA-2025-321 for J.D. was due 2025-03-20 and is still at Thermoforming.',
        risk: 'overdue',
      }),
    ]);
  });

  it('names the lab day of an instant in local time', () => {
    expect(localDay(new Date(2025, 0, 5, 23, 59))).toBe('2025-01-05');
    expect(localDay(new Date(2025, 11, 31, 0, 0))).toBe('2025-12-31');
  });
});
