/** Shared by the case-work specs: a case without a doctor or price yet, and the road it takes. */
import type { CaseEventData } from '../case/events.js';
import type { Actor } from '../permissions/roles.js';
import { drLee, E, road } from './case-fixtures.js';
import { fold } from './evolve-fixtures.js';

export { time, manager, designer, drLee, drPatel } from './case-fixtures.js';
export { tech as technician, rep as representative } from './case-fixtures.js';
export { fold };

export const created = E.created({
  id: 'CA-2025-321',
  priority: 'High',
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
});
export const approved = E.approved();
export const advance = E.advanced;
export const links = E.links;
export const toDoctor = E.advanced('Digital Planning', 'Doctor Approval');
export const doctorApproves: [CaseEventData, Actor] = [E.planApproved(), drLee];
export const changesRequested = (comment: string): [CaseEventData, Actor] => [
  E.changesRequested(comment),
  drLee,
];

export const completedCase = () =>
  fold(created, approved, toDoctor, doctorApproves, ...road('Completed').slice(4));
