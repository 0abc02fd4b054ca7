import { DEFAULT_ASSIGNEE, DOCTOR_CASE_FEE, UNASSIGNED, type Case, type StageStatus } from './case.js';
import type { CaseDetails, CaseEventData, EditableCaseField } from './events.js';
import { notesFull } from './notes-bound.js';
import { nextStatus, parseStatus, STATUS_LABELS } from './status.js';
import { CASE_TEXTS } from './texts.js';
import { decideAddFiles, decideRemoveFile } from './decide-files.js';
import { decideReorder } from './decide-reorder.js';
import { decideErase, decidePurgeFile } from './erasure.js';
import { checkStageMaterials, decideReceived, decideShipment } from './decide-devices.js';
import { AT_RISK_DAYS, isAtRisk, isOverdue } from './at-risk.js';
import { can, type Capability } from '../permissions/permissions.js';
import { canActOnCase, canSeeCase, isAssignedDoctor, stageOwners } from './case-access.js';
import type { Actor } from '../permissions/roles.js';
import { checkText, LIMITS } from '../validation/validation.js';

import { accept, conflict, forbidden, invalid, notFound, type Decision } from './decision.js';
import { type CaseCommand, type StagingAction } from './commands.js';
import {
  checkNewCase,
  checkPricing,
  checkLinks,
  EDITABLE_FIELDS,
  sameNotes,
  sameJson,
  checkEditField,
} from './input-checks.js';

/**
 * Decides what a command does to a case: the events to append, or why not. Checks run in the
 * order of the HTTP contract: visibility (not_found), the case's state (conflict), the caller's
 * role (forbidden), then the input (invalid).
 */
export function decide(state: Case | null, command: CaseCommand, actor: Actor, now: string): Decision {
  if (command.type === 'CreateCase') return decideCreate(state, command, actor, now);
  if (!state || !canSeeCase(actor, state)) {
    return command.type === 'ScanAlignerStage' ? notFound(CASE_TEXTS.invalidQr) : notFound();
  }
  const requireRole = (capability: Capability, message: string) =>
    can(actor.role, capability) ? undefined : forbidden(message);

  switch (command.type) {
    case 'ApproveCase': {
      const blocked = pendingApprovalOnly(state) ?? requireRole('approveCase', CASE_TEXTS.managerOnly);
      if (blocked) return blocked;
      if (!command.doctorUsername?.trim()) return invalid(CASE_TEXTS.chooseDoctor);
      if (command.doctor?.role !== 'Doctor') return invalid(CASE_TEXTS.notADoctor(command.doctorUsername));
      return accept({ type: 'CaseApproved', data: { doctorUsername: command.doctor.username } });
    }
    case 'RejectCase': {
      const blocked = pendingApprovalOnly(state) ?? requireRole('rejectCase', CASE_TEXTS.managerOnly);
      if (blocked) return blocked;
      const reason = checkText('Reason', command.reason, { max: LIMITS.reason });
      if ('error' in reason) return invalid(reason.error);
      if (!reason.value) return invalid(CASE_TEXTS.reasonRequired);
      return accept({ type: 'CaseRejected', data: { reason: reason.value } });
    }
    case 'AdvanceStage':
      return decideAdvance(state, command.fromStatus, actor, command, now);
    case 'RecordShipment':
      return decideShipment(state, command, actor, now);
    case 'MarkReceived':
      return decideReceived(state, actor);
    case 'ApproveTreatmentPlan':
    case 'RequestChanges': {
      const blocked = doctorApprovalOnly(state, actor);
      if (blocked) return blocked;
      if (command.type === 'ApproveTreatmentPlan') return accept({ type: 'TreatmentPlanApproved', data: {} });
      const comment = checkText('Comment', command.comment, { max: LIMITS.reason });
      if ('error' in comment) return invalid(comment.error);
      if (!comment.value) return invalid(CASE_TEXTS.commentRequired);
      return accept({ type: 'ChangesRequested', data: { comment: comment.value } });
    }
    case 'HoldCase':
      if (state.onHold) return conflict(CASE_TEXTS.alreadyOnHold);
      return requireRole('holdCase', CASE_TEXTS.managerOnly) ?? accept({ type: 'CaseHeld', data: {} });
    case 'ResumeCase':
      if (!state.onHold) return conflict(CASE_TEXTS.notOnHold);
      return requireRole('holdCase', CASE_TEXTS.managerOnly) ?? accept({ type: 'CaseResumed', data: {} });
    case 'EditCase':
      return requireRole('editCase', CASE_TEXTS.managerOnly) ?? decideEdit(state, command.fields);
    case 'UpdatePricing':
      return requireRole('editPricing', CASE_TEXTS.pricingRoles) ?? decidePricing(state, command);
    case 'SaveSimulationLinks': {
      if (state.status !== STATUS_LABELS.DigitalPlanning) return conflict(CASE_TEXTS.onlyAtDigitalPlanning);
      if (state.onHold) return conflict(CASE_TEXTS.onHold);
      const blocked = requireRole('saveSimulation', CASE_TEXTS.simulationRoles);
      if (blocked) return blocked;
      const links = checkLinks({
        simulationVideoUrl: command.simulationVideoUrl,
        simulationExternalLink: command.simulationExternalLink,
      });
      if ('error' in links) return invalid(links.error);
      return accept({ type: 'SimulationLinksSaved', data: links.value });
    }
    case 'ReassignStage': {
      if (state.onHold) return conflict(CASE_TEXTS.onHold);
      const blocked = requireRole('reassignStage', CASE_TEXTS.managerOnly);
      if (blocked) return blocked;
      const stage = parseStatus(command.stage);
      const step = stage && state.alignerWorkflow.find((candidate) => candidate.name === stage);
      if (!step) return invalid(CASE_TEXTS.unknownWorkflowStage(command.stage));
      const assignee = checkText('Assignee', command.assignee, { max: LIMITS.username });
      if ('error' in assignee) return invalid(assignee.error);
      if (!assignee.value) return invalid(CASE_TEXTS.assigneeRequired);
      const placeholder = assignee.value === UNASSIGNED || assignee.value === DEFAULT_ASSIGNEE;
      if (!placeholder && !command.assigneeIsLabUser)
        return invalid(`"${assignee.value}" is not a lab user.`);
      if (step.assignedTo === assignee.value) return accept();
      return accept({
        type: 'StageAssigneeChanged',
        data: { stage: step.name, assignee: assignee.value, viaQr: false },
      });
    }
    case 'GenerateCaseQr':
      return decideQr(state, actor);
    case 'AddNote': {
      const text = checkText('Note', command.text, { max: LIMITS.noteText });
      if ('error' in text) return invalid(text.error);
      if (!text.value) return invalid(CASE_TEXTS.noteEmpty);
      const full = notesFull(state, text.value);
      if (full) return conflict(full);
      return accept({ type: 'NoteAdded', data: { text: text.value } });
    }
    case 'ChangeAlignerStage':
      return decideStaging(state, command.stageNumber, command.action, actor);
    case 'ScanAlignerStage':
      return decideStageScan(state, command.stageNumber, actor);
    case 'DeleteCase':
      return requireRole('deleteCase', CASE_TEXTS.managerOnly) ?? accept({ type: 'CaseDeleted', data: {} });
    case 'AddFiles':
      return decideAddFiles(state, command.files);
    case 'RemoveFile':
      return decideRemoveFile(state, command.url, command.reason, actor);
    case 'EraseCase':
      return decideErase(state, command.reason, actor);
    case 'PurgeFile':
      return decidePurgeFile(state, command.url, command.reason, actor);
    case 'OrderFollowUp':
      return decideReorder(state, command.newCaseId, command.input, actor);
    case 'FlagAtRisk':
      return decideRisk(state, now, command.atRiskDays ?? AT_RISK_DAYS, command.transitDays ?? 0);
  }
}

function pendingApprovalOnly(state: Case): Decision | undefined {
  if (state.status !== STATUS_LABELS.PendingApproval) return conflict(CASE_TEXTS.onlyAtPendingApproval);
  if (state.onHold) return conflict(CASE_TEXTS.onHold);
  return undefined;
}

function doctorApprovalOnly(state: Case, actor: Actor): Decision | undefined {
  if (state.status !== STATUS_LABELS.DoctorApproval) return conflict(CASE_TEXTS.onlyAtDoctorApproval);
  if (state.onHold) return conflict(CASE_TEXTS.onHold);
  if (!isAssignedDoctor(actor, state)) return forbidden(CASE_TEXTS.onlyAssignedDoctor);
  return undefined;
}

/** Why the case cannot be advanced by anyone right now, or undefined when its stage can be worked. */
export function workflowBlock(state: Case): string | undefined {
  if (state.onHold) return CASE_TEXTS.onHold;
  switch (state.status) {
    case STATUS_LABELS.PendingApproval:
      return CASE_TEXTS.needsManagerApproval;
    case STATUS_LABELS.DoctorApproval:
      return CASE_TEXTS.waitingForDoctor;
    case STATUS_LABELS.Completed:
      return CASE_TEXTS.complete;
    case STATUS_LABELS.Rejected:
      return CASE_TEXTS.rejected;
  }
  return undefined;
}

function decideAdvance(
  state: Case,
  fromStatus: string | undefined,
  actor: Actor,
  materials: Pick<Extract<CaseCommand, { type: 'AdvanceStage' }>, 'lots' | 'machine' | 'requireLots'> = {},
  now?: string,
): Decision {
  if (fromStatus !== undefined && parseStatus(fromStatus) !== state.status) {
    return conflict(CASE_TEXTS.concurrentChange);
  }
  const blocked = workflowBlock(state);
  if (blocked) return conflict(blocked);
  const owners = stageOwners(state.status);
  const step = state.alignerWorkflow.find((candidate) => candidate.name === state.status);
  // With no owning roles defined the stage belongs to "the assigned user" of its step.
  const allowed = owners.length ? owners.includes(actor.role) : step?.assignedTo === actor.username;
  if (!allowed) return forbidden(CASE_TEXTS.onlyCompletedBy(owners));
  const to = nextStatus(state.status);
  if (!to) return conflict(CASE_TEXTS.complete);
  const used = checkStageMaterials(state.status, materials, localDay(now ? new Date(now) : new Date()));
  if ('rejection' in used) return used.rejection;
  return accept({ type: 'StageAdvanced', data: { from: state.status, to, ...used.value } });
}

/** What the "Complete Stage & Advance" button shows: enabled, or the guidance text instead. */
export function advanceAvailability(state: Case, actor: Actor): { enabled: boolean; message: string | null } {
  const decision = decideAdvance(state, undefined, actor);
  return decision.ok
    ? { enabled: true, message: null }
    : { enabled: false, message: decision.rejection.message };
}

function decideCreate(
  state: Case | null,
  command: Extract<CaseCommand, { type: 'CreateCase' }>,
  actor: Actor,
  now: string,
): Decision {
  if (state) return conflict(`Case ${command.caseId} already exists.`);
  if (!can(actor.role, 'createCase')) return forbidden(CASE_TEXTS.createRoles);
  const checked = checkNewCase(command.input, now);
  if ('errors' in checked) return invalid(checked.errors[0], checked.errors);
  const byDoctor = actor.role === 'Doctor';
  return accept({
    type: 'CaseCreated',
    data: {
      id: command.caseId,
      ...checked.value,
      assignedDoctorUsername: byDoctor ? actor.username : null,
      fee: byDoctor ? { amount: DOCTOR_CASE_FEE, currency: 'USD' } : null,
    },
  });
}

function decidePricing(state: Case, input: { price: unknown; upperSheets: unknown; lowerSheets: unknown }) {
  const pricing = checkPricing(input);
  if ('error' in pricing) return invalid(pricing.error);
  const { price, upperSheets, lowerSheets } = pricing.value;
  if (price === state.price && upperSheets === state.upperSheets && lowerSheets === state.lowerSheets) {
    return accept();
  }
  return accept({ type: 'PricingUpdated', data: pricing.value });
}

/** Edit Case: the listed fields may change; any other field of the case may be sent but must be unchanged. */
function decideEdit(state: Case, fields: Record<string, unknown>): Decision {
  const changes: Partial<CaseDetails> = {};
  const errors: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (field === 'version' || field === 'expectedVersion') continue;
    if (!(EDITABLE_FIELDS as readonly string[]).includes(field)) {
      if (field === 'notes' || field === 'noteCount') {
        if (!sameNotes(state, field, value)) errors.push(CASE_TEXTS.workflowFieldChanged(field));
        continue;
      }
      const current = (state as unknown as Record<string, unknown>)[field];
      if (!(field in state) || !sameJson(current, value)) {
        errors.push(CASE_TEXTS.workflowFieldChanged(field));
      }
      continue;
    }
    const checked = checkEditField(field as EditableCaseField, value);
    if ('error' in checked) errors.push(checked.error);
    else if (checked.value !== state[field as EditableCaseField]) {
      (changes as Record<string, unknown>)[field] = checked.value;
    }
  }
  if (errors.length) return invalid(errors[0], errors);
  return Object.keys(changes).length ? accept({ type: 'CaseDetailsEdited', data: { changes } }) : accept();
}

/**
 * Showing the case QR: a Technician generating it takes the current stage when nobody in
 * particular holds it; someone else's stage only gets a note.
 */
function decideQr(state: Case, actor: Actor): Decision {
  if (state.status === STATUS_LABELS.PendingApproval || state.status === STATUS_LABELS.Rejected) {
    return conflict(CASE_TEXTS.qrNotYet);
  }
  if (!canActOnCase(actor, state)) return forbidden(CASE_TEXTS.qrRoles);
  if (!can(actor.role, 'selfAssignViaQr') || state.onHold) return accept();
  const step = state.alignerWorkflow.find((candidate) => candidate.name === state.status);
  if (!step || step.assignedTo === actor.username) return accept();
  if (step.assignedTo === DEFAULT_ASSIGNEE || step.assignedTo === UNASSIGNED) {
    return accept({
      type: 'StageAssigneeChanged',
      data: { stage: step.name, assignee: actor.username, viaQr: true },
    });
  }
  return accept({ type: 'QrAssignmentKept', data: { stage: step.name, owner: step.assignedTo } });
}

const STAGING_TRANSITIONS: Record<
  StagingAction,
  { from: StageStatus | null; to: StageStatus; verb: string }
> = {
  start: { from: 'Not Started', to: 'In Progress', verb: 'started' },
  complete: { from: 'In Progress', to: 'Completed', verb: 'completed' },
  reopen: { from: 'Completed', to: 'In Progress', verb: 're-opened' },
  reset: { from: null, to: 'Not Started', verb: 'reset' },
};

function decideStaging(state: Case, stageNumber: number, action: StagingAction, actor: Actor): Decision {
  if (!state.staging.length) return conflict(CASE_TEXTS.noStaging);
  const entry = state.staging.find((candidate) => candidate.stageNumber === stageNumber);
  if (!entry) return notFound(CASE_TEXTS.unknownStage(stageNumber));
  const transition = STAGING_TRANSITIONS[action];
  if (transition.from && entry.status !== transition.from) {
    return conflict(CASE_TEXTS.stageTransition(stageNumber, entry.status, transition.verb));
  }
  if (!mayChangeStaging(state, actor)) return forbidden(CASE_TEXTS.stagingRoles);
  return accept({ type: 'AlignerStageChanged', data: { stageNumber, status: transition.to } });
}

function mayChangeStaging(state: Case, actor: Actor): boolean {
  return actor.role === 'Manager' || isAssignedDoctor(actor, state);
}

/** A stage QR starts its stage and completes the one before it (spec section 4). */
function decideStageScan(state: Case, stageNumber: number, actor: Actor): Decision {
  const entry = state.staging.find((candidate) => candidate.stageNumber === stageNumber);
  if (!entry) return notFound(CASE_TEXTS.invalidQr);
  if (entry.status !== 'Not Started') return conflict(CASE_TEXTS.stageAlreadyStarted(stageNumber));
  if (!mayChangeStaging(state, actor)) return forbidden(CASE_TEXTS.stagingRoles);
  const events: CaseEventData[] = [
    { type: 'AlignerStageChanged', data: { stageNumber, status: 'In Progress', viaScan: true } },
  ];
  const previous = state.staging.find((candidate) => candidate.stageNumber === stageNumber - 1);
  if (previous && previous.status !== 'Completed') {
    events.push({
      type: 'AlignerStageChanged',
      data: { stageNumber: stageNumber - 1, status: 'Completed', viaScan: true },
    });
  }
  return accept(...events);
}

/** The lab's day of an instant, YYYY-MM-DD in the server's time zone (the at-risk rule's day). */
export function localDay(at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/**
 * One CaseAtRisk per case, kind and day: at risk by the one rule (at-risk.ts; never while held),
 * overdue when the due day has passed, and not yet alerted of that kind today.
 */
function decideRisk(state: Case, now: string, atRiskDays: number, transitDays: number): Decision {
  const at = new Date(now);
  if (state.deleted || !isAtRisk(state, at, atRiskDays, transitDays)) return conflict(CASE_TEXTS.notAtRisk);
  const kind = isOverdue(state, at, transitDays) ? 'overdue' : 'at_risk';
  const day = localDay(at);
  if (state.riskAlerts?.[kind] === day) return conflict(CASE_TEXTS.riskAlreadyAlerted(kind, day));
  return accept({ type: 'CaseAtRisk', data: { kind, day, deliveryDate: state.deliveryDate } });
}
