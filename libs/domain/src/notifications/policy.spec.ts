import { CASE_EVENT_TYPES, type CaseEvent } from '../case/events.js';
import { evolve } from '../case/evolve.js';
import { ALERTING_CASE_EVENTS, alertsFor } from './policy.js';

describe('ALERTING_CASE_EVENTS', () => {
  const actor = { username: 'admin', role: 'Manager' as const };
  const at = '2025-03-01T10:00:00.000Z';
  const state = evolve(null, {
    type: 'CaseCreated',
    data: {
      id: 'CA-2025-100',
      patientName: 'P',
      doctorName: 'D',
      clinicName: 'C',
      assignedDoctorUsername: 'dr.lee',
      priority: 'Normal',
      deliveryDate: null,
      files: [],
      treatmentPlanNotes: '',
      price: null,
      upperSheets: null,
      lowerSheets: null,
      fee: null,
    },
    actor,
    at,
  } as CaseEvent);

  // The notification planner skips every other event without reading the case's state.
  it.each(CASE_EVENT_TYPES.filter((type) => !ALERTING_CASE_EVENTS.has(type)))('%s never alerts', (type) => {
    expect(alertsFor({ type, data: {}, actor, at } as unknown as CaseEvent, state)).toEqual([]);
  });
});

describe("alertsFor 'initials': what leaves the lab by email and FCM", () => {
  const doctor = { username: 'dr.lee', role: 'Doctor' as const };
  const at = '2025-03-01T10:00:00.000Z';
  const state = {
    ...evolve(null, {
      type: 'CaseCreated',
      data: {
        id: 'CA-2025-101',
        patientName: 'Maria Gonzalez-Ruiz',
        doctorName: 'D',
        clinicName: 'C',
        assignedDoctorUsername: 'dr.lee',
        priority: 'Normal',
        deliveryDate: '2025-03-03',
        files: [],
        treatmentPlanNotes: 'Upper crowding, patient anxious',
        price: null,
        upperSheets: null,
        lowerSheets: null,
        fee: null,
      },
      actor: doctor,
      at,
    } as CaseEvent),
    status: 'Doctor Approval' as const,
  };
  const events = [
    { type: 'CaseCreated', data: state },
    { type: 'StageAdvanced', data: { from: 'Digital Planning', to: 'Doctor Approval' } },
    { type: 'StageAdvanced', data: { from: 'Delivery to Doctor', to: 'Completed' } },
    { type: 'CaseHeld', data: {} },
    { type: 'CaseResumed', data: {} },
    { type: 'ChangesRequested', data: { comment: 'Tooth 12 hurts when she bites' } },
    { type: 'CaseRejected', data: { reason: 'Scan shows an untreated abscess' } },
    { type: 'CaseAtRisk', data: { kind: 'overdue', day: '2025-03-04', deliveryDate: '2025-03-03' } },
    { type: 'ShipmentRecorded', data: { carrier: 'ups', trackingNumber: '1Z999', shippedAt: at } },
  ].map((event) => ({ ...event, actor: doctor, at }) as unknown as CaseEvent);

  it.each(events.map((event) => [event.type, event] as const))(
    '%s names the patient by initials and carries no free text',
    (_, event) => {
      const full = alertsFor(event, state);
      const outside = alertsFor(event, state, 'initials');
      expect(outside).toHaveLength(full.length);
      for (const alert of outside) {
        const words = `${alert.title} ${alert.body}`;
        for (const secret of ['Maria', 'Gonzalez', 'Ruiz', 'Tooth 12', 'abscess', 'anxious'])
          expect(words).not.toContain(secret);
      }
    },
  );

  it('says whose case by initials where the full alert names the patient', () => {
    const [rejected] = alertsFor(events[6], state, 'initials');
    expect(rejected.body).toBe('CA-2025-101 for M.G.R. was rejected.');
    const [changes] = alertsFor(events[5], state, 'initials');
    expect(changes.body).toBe('dr.lee requested changes to CA-2025-101 (M.G.R.).');
    // The lab's own screens keep the words.
    expect(alertsFor(events[5], state)[0].body).toBe(
      'dr.lee requested changes to CA-2025-101: Tooth 12 hurts when she bites',
    );
  });
});
