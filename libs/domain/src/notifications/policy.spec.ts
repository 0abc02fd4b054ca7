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
