import type { CaseEvent, CaseEventData } from '../case/events.js';
import { foldCase } from '../case/evolve.js';
import { CASE_STATUSES } from '../case/status.js';
import type { Actor } from '../permissions/roles.js';

/** Shared by the case-work specs: a case and the events that walk it along. */
const T0 = Date.parse('2025-03-10T09:00:00.000Z');
export const time = (hour: number) => new Date(T0 + hour * 3_600_000).toISOString();
export const manager: Actor = { username: 'admin', role: 'Manager' };
export const designer: Actor = { username: 'designer', role: 'Designer' };
export const technician: Actor = { username: 'tech', role: 'Technician' };
export const representative: Actor = { username: 'rep', role: 'Representative' };
export const drLee: Actor = { username: 'dr.lee', role: 'Doctor' };
export const drPatel: Actor = { username: 'dr.patel', role: 'Doctor' };

export const created: CaseEventData = {
  type: 'CaseCreated',
  data: {
    id: 'CA-2025-321',
    patientName: 'Jane Doe',
    doctorName: 'Dr. Lee',
    clinicName: 'Smile Clinic',
    priority: 'High',
    deliveryDate: '2025-03-24',
    treatmentPlanNotes: 'Crowding',
    assignedDoctorUsername: null,
    files: [
      {
        name: 'upper.stl',
        type: 'STL',
        url: '/api/files/00000000-0000-0000-0000-000000000001/upper.stl',
        size: '1.00 MB',
      },
    ],
    price: null,
    upperSheets: 2,
    lowerSheets: 2,
    fee: null,
  },
};
export const approved: CaseEventData = { type: 'CaseApproved', data: { doctorUsername: 'dr.lee' } };
export const advance = (from: string, to: string) =>
  ({ type: 'StageAdvanced', data: { from, to } }) as CaseEventData;
export const links = (video: string, external = ''): CaseEventData => ({
  type: 'SimulationLinksSaved',
  data: { simulationVideoUrl: video, simulationExternalLink: external },
});
export const toDoctor = advance('Digital Planning', 'Doctor Approval');
export const doctorApproves: [CaseEventData, Actor] = [{ type: 'TreatmentPlanApproved', data: {} }, drLee];
export const changesRequested = (comment: string): [CaseEventData, Actor] => [
  { type: 'ChangesRequested', data: { comment } },
  drLee,
];
/** From Model Printing to Completed. */
export const toCompletedFromPrinting: CaseEventData[] = CASE_STATUSES.slice(4).flatMap(
  (status, index, rest) => (index + 1 < rest.length ? [advance(status, rest[index + 1])] : []),
);

/** Events stamped one hour apart, by the manager unless given as [event, actor]. */
export function fold(...events: (CaseEventData | [CaseEventData, Actor])[]) {
  const stamped = events.map((item, index) => {
    const [event, actor] = Array.isArray(item) ? item : [item, manager];
    return { ...event, actor, at: time(index) } as CaseEvent;
  });
  return foldCase(stamped)!;
}

export const completedCase = () =>
  fold(created, approved, toDoctor, doctorApproves, ...toCompletedFromPrinting);
