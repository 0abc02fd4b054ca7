/**
 * Test fixtures of the case rules: a case is given as the events that made it (never built by
 * hand), and commands are decided at NOW. Used by the domain's specs and the app's tests alike;
 * not part of the built library.
 */
import type { Case, StageStatus } from '../case/case.js';
import { type CaseCommand } from '../case/commands.js';
import { decide } from '../case/decide.js';
import { type Decision } from '../case/decision.js';
import type { CaseEventData } from '../case/events.js';
import { evolve } from '../case/evolve.js';
import { nextStatus, type CaseStatus } from '../case/status.js';
import type { Actor, Role } from '../permissions/roles.js';

export const T0 = Date.parse('2025-03-10T09:00:00.000Z');
export const time = (hour: number) => new Date(T0 + hour * 3_600_000).toISOString();
export const NOW = '2025-03-20T10:00:00.000Z';

export const manager: Actor = { username: 'admin', role: 'Manager' };
export const rep: Actor = { username: 'rep', role: 'Representative' };
export const designer: Actor = { username: 'designer', role: 'Designer' };
export const tech: Actor = { username: 'tech', role: 'Technician' };
export const tech2: Actor = { username: 'tech2', role: 'Technician' };
export const drLee: Actor = { username: 'dr.lee', role: 'Doctor' };
export const drPatel: Actor = { username: 'dr.patel', role: 'Doctor' };
/** One actor per role; the Doctor is the case's assigned doctor. */
export const BY_ROLE: Record<Role, Actor> = {
  Manager: manager,
  Representative: rep,
  Designer: designer,
  Technician: tech,
  Doctor: drLee,
};
export const ROLES: Role[] = ['Manager', 'Representative', 'Designer', 'Technician', 'Doctor'];

export type CreatedData = Extract<CaseEventData, { type: 'CaseCreated' }>['data'];
export const E = {
  created: (data: Partial<CreatedData> = {}): CaseEventData => ({
    type: 'CaseCreated',
    data: {
      id: 'CA-2025-123',
      patientName: 'Jane Doe',
      doctorName: 'Dr. Lee',
      clinicName: 'Smile Clinic',
      priority: 'Normal',
      deliveryDate: '2025-03-24',
      treatmentPlanNotes: '',
      assignedDoctorUsername: 'dr.lee', // as a case dr.lee created
      files: [],
      price: 1200,
      upperSheets: 3,
      lowerSheets: 2,
      fee: { amount: 50, currency: 'USD' },
      ...data,
    },
  }),
  approved: (doctorUsername = 'dr.lee'): CaseEventData => ({
    type: 'CaseApproved',
    data: { doctorUsername },
  }),
  rejected: (reason = 'Scan unusable'): CaseEventData => ({ type: 'CaseRejected', data: { reason } }),
  advanced: (from: CaseStatus, to: CaseStatus): CaseEventData => ({
    type: 'StageAdvanced',
    data: { from, to },
  }),
  planApproved: (): CaseEventData => ({ type: 'TreatmentPlanApproved', data: {} }),
  changesRequested: (comment = 'Fix it'): CaseEventData => ({ type: 'ChangesRequested', data: { comment } }),
  held: (): CaseEventData => ({ type: 'CaseHeld', data: {} }),
  resumed: (): CaseEventData => ({ type: 'CaseResumed', data: {} }),
  links: (simulationVideoUrl: string, simulationExternalLink = ''): CaseEventData => ({
    type: 'SimulationLinksSaved',
    data: { simulationVideoUrl, simulationExternalLink },
  }),
  assignee: (stage: CaseStatus, assignee: string, viaQr = false): CaseEventData => ({
    type: 'StageAssigneeChanged',
    data: { stage, assignee, viaQr },
  }),
  stage: (stageNumber: number, status: StageStatus): CaseEventData => ({
    type: 'AlignerStageChanged',
    data: { stageNumber, status },
  }),
  deleted: (): CaseEventData => ({ type: 'CaseDeleted', data: {} }),
};

export type Given = CaseEventData | [CaseEventData, Actor];
/** Folds events (by the manager unless said otherwise), one hour apart from T0. */
export function given(...events: Given[]): Case {
  return events.reduce<Case | null>((state, item, index) => {
    const [event, actor] = Array.isArray(item) ? item : [item, manager];
    return evolve(state, { ...event, actor, at: time(index) } as Parameters<typeof evolve>[1]);
  }, null)!;
}

/** The events that take a new case (assigned to dr.lee on approval) to `status` the usual way. */
export function road(status: CaseStatus, created: Partial<CreatedData> = {}): CaseEventData[] {
  const events = [E.created(created)];
  if (status === 'Pending Approval') return events;
  if (status === 'Rejected') return [...events, E.rejected()];
  events.push(E.approved());
  for (let current: CaseStatus = 'Digital Planning'; current !== status;) {
    const next: CaseStatus = nextStatus(current)!;
    events.push(current === 'Doctor Approval' ? E.planApproved() : E.advanced(current, next));
    current = next;
  }
  return events;
}

/** A case at `status`; Scan Received is off the usual road (approval skips it), so it is set up by hand. */
export function caseAt(status: CaseStatus, ...more: Given[]): Case {
  if (status !== 'Scan Received') return given(...road(status), ...more);
  const pending = given(...road('Pending Approval'), E.approved(), ...more);
  return {
    ...pending,
    status: 'Scan Received',
    alignerWorkflow: pending.alignerWorkflow.map((step, index) => ({
      ...step,
      completed: index < 1,
      date: index < 1 ? step.date : null,
    })),
  };
}

export const run = (state: Case | null, command: CaseCommand, actor: Actor = manager): Decision =>
  decide(state, command, actor, NOW);

/** Applies an accepted decision's events at `at`. */
export function apply(state: Case | null, decision: Decision, actor: Actor = manager, at = NOW): Case {
  if (!decision.ok) throw new Error(`rejected: ${decision.rejection.message}`);
  return decision.events.reduce<Case>(
    (current, event) => evolve(current, { ...event, actor, at } as Parameters<typeof evolve>[1]),
    state as Case,
  );
}

export const accepted = (...events: CaseEventData[]): Decision => ({ ok: true, events });
export const refused = (
  kind: 'not_found' | 'invalid' | 'forbidden' | 'conflict',
  message: string,
): Decision => ({
  ok: false,
  rejection: { kind, message },
});
export const notFound = refused('not_found', 'Case not found.');
export const onHold = refused('conflict', 'This case is currently on hold. Workflow actions are disabled.');
export const managerOnly = refused('forbidden', 'Only a manager can do this.');
