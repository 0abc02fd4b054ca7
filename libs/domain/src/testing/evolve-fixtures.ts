/** Fixtures of the evolve specs: events stamped with an actor and a time, folded. */
import { type CaseEvent, type CaseEventData } from '../case/events.js';
import { foldCase } from '../case/evolve.js';
import { CASE_STATUSES } from '../case/status.js';
import type { Actor } from '../permissions/roles.js';

export const T0 = Date.parse('2025-03-10T09:00:00.000Z');
export const time = (hour: number) => new Date(T0 + hour * 3_600_000).toISOString();
export const manager: Actor = { username: 'admin', role: 'Manager' };
export const drLee: Actor = { username: 'dr.lee', role: 'Doctor' };

export const createdEvent: CaseEventData = {
  type: 'CaseCreated',
  data: {
    id: 'CA-2025-321',
    patientName: 'Jane Doe',
    doctorName: 'Dr. Lee',
    clinicName: 'Smile Clinic',
    priority: 'High',
    deliveryDate: '2025-03-24',
    treatmentPlanNotes: 'Crowding',
    assignedDoctorUsername: 'dr.lee',
    files: [{ name: 'upper.stl', type: 'STL', url: '/u/upper.stl', size: '1.00 MB' }],
    price: 1200,
    upperSheets: 3,
    lowerSheets: 4,
    fee: { amount: 50, currency: 'USD' },
  },
};

/** Events stamped one hour apart, by the manager unless given as [event, actor]. */
export function stamp(events: (CaseEventData | [CaseEventData, Actor])[]): CaseEvent[] {
  return events.map((item, index) => {
    const [event, actor] = Array.isArray(item) ? item : [item, manager];
    return { ...event, actor, at: time(index) } as CaseEvent;
  });
}
export const fold = (...events: (CaseEventData | [CaseEventData, Actor])[]) => foldCase(stamp(events))!;

export const approved: CaseEventData = { type: 'CaseApproved', data: { doctorUsername: 'dr.lee' } };
export const advance = (from: string, to: string) =>
  ({ type: 'StageAdvanced', data: { from, to } }) as CaseEventData;
/** Created → approved → walked to Completed. */
export const toCompleted: CaseEventData[] = [
  createdEvent,
  approved,
  advance('Digital Planning', 'Doctor Approval'),
  { type: 'TreatmentPlanApproved', data: {} },
  ...CASE_STATUSES.slice(4).flatMap((status, index, rest) =>
    index + 1 < rest.length ? [advance(status, rest[index + 1])] : [],
  ),
];

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
