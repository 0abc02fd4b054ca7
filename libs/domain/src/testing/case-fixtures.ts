/**
 * Test fixtures of the case rules: a case is given as the events that made it (never built by
 * hand), and commands are decided at NOW. Used by the domain's specs and the app's tests alike;
 * not part of the built library.
 */
import type { Case, CaseFile, RemakeReasonCode, ReorderKind, StageStatus } from '../case/case.js';
import { type CaseCommand } from '../case/commands.js';
import { decide } from '../case/decide.js';
import { type Decision } from '../case/decision.js';
import type { CaseDetails, CaseEvent, CaseEventData } from '../case/events.js';
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
  edited: (changes: Partial<CaseDetails>): CaseEventData => ({
    type: 'CaseDetailsEdited',
    data: { changes },
  }),
  priced: (price: number | null, upperSheets: number | null, lowerSheets: number | null): CaseEventData => ({
    type: 'PricingUpdated',
    data: { price, upperSheets, lowerSheets },
  }),
  note: (text: string): CaseEventData => ({ type: 'NoteAdded', data: { text } }),
  filesAdded: (...files: CaseFile[]): CaseEventData => ({ type: 'FilesAdded', data: { files } }),
  fileRemoved: (url: string, reason: string): CaseEventData => ({
    type: 'FileRemoved',
    data: { url, reason },
  }),
  followUp: (
    caseId: string,
    kind: ReorderKind,
    reasonCode: RemakeReasonCode | null = null,
    reason = '',
  ): CaseEventData => ({ type: 'FollowUpOrdered', data: { caseId, kind, reasonCode, reason } }),
  /** A stage QR scanned: the stage changes as the scan decides it. */
  scanned: (stageNumber: number, status: StageStatus): CaseEventData => ({
    type: 'AlignerStageChanged',
    data: { stageNumber, status, viaScan: true },
  }),
};

/** An event by the manager, or by `actor`, or by `actor` at `at` (else one hour apart from T0). */
export type Given = CaseEventData | [CaseEventData, Actor] | [CaseEventData, Actor, string];

/** Stamps events with their actor and time: by the manager, one hour apart from T0, unless said. */
export function stamp(events: Given[]): CaseEvent[] {
  return events.map((item, index) => {
    const [event, actor = manager, at = time(index)] = Array.isArray(item) ? item : [item];
    return { ...event, actor, at } as CaseEvent;
  });
}

/** The case the events make: the one way a test gets a case. */
export function given(...events: Given[]): Case {
  return stamp(events).reduce<Case | null>(evolve, null)!;
}

/** One step of the usual road: who sends which command, and the event it decides. */
export interface RoadStep {
  by: Actor;
  command: CaseCommand;
  event: CaseEventData;
}

/**
 * The steps that take a new case of dr.lee's from Pending Approval to `status` the usual way,
 * each by a role allowed to: the domain folds their events, the API tests send their commands.
 */
export function roadSteps(status: CaseStatus): RoadStep[] {
  if (status === 'Pending Approval') return [];
  if (status === 'Rejected') {
    return [{ by: manager, command: { type: 'RejectCase', reason: 'Scan unusable' }, event: E.rejected() }];
  }
  const steps: RoadStep[] = [
    {
      by: manager,
      command: { type: 'ApproveCase', doctorUsername: drLee.username, doctor: drLee },
      event: E.approved(),
    },
  ];
  for (let current: CaseStatus = 'Digital Planning'; current !== status;) {
    const next: CaseStatus = nextStatus(current)!;
    steps.push(
      current === 'Doctor Approval'
        ? { by: drLee, command: { type: 'ApproveTreatmentPlan' }, event: E.planApproved() }
        : {
            by: manager,
            command: { type: 'AdvanceStage', fromStatus: current },
            event: E.advanced(current, next),
          },
    );
    current = next;
  }
  return steps;
}

/** The events that take a new case (assigned to dr.lee on approval) to `status` the usual way. */
export function road(status: CaseStatus, created: Partial<CreatedData> = {}): CaseEventData[] {
  return [E.created(created), ...roadSteps(status).map((step) => step.event)];
}

/**
 * A case at `status`. Scan Received is off the usual road (approval skips it): only a backup of
 * the original portal brings a case there, so it comes as the import of such a case.
 */
export function caseAt(status: CaseStatus, ...more: Given[]): Case {
  if (status !== 'Scan Received') return given(...road(status), ...more);
  const { version: _version, ...pending } = given(...road('Pending Approval'));
  const imported: Case['alignerWorkflow'] = pending.alignerWorkflow.map((step, index) => ({
    ...step,
    completed: index < 1,
    date: index < 1 ? pending.createdDate : null,
  }));
  return given(
    { type: 'CaseImported', data: { case: { ...pending, status, alignerWorkflow: imported } } },
    ...more,
  );
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
