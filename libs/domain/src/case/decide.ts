import {
  DEFAULT_ASSIGNEE,
  DEFAULT_DUE_IN_DAYS,
  DOCTOR_CASE_FEE,
  FILE_TYPES,
  PRIORITIES,
  UNASSIGNED,
  type Case,
  type CaseFile,
  type Priority,
  type StageStatus,
} from './case.js';
import type { CaseDetails, CaseEventData, EditableCaseField } from './events.js';
import { notesFull, notesSize } from './notes-bound.js';
import { nextStatus, parseStatus, STATUS_LABELS } from './status.js';
import { CASE_TEXTS } from './texts.js';
import { decideAddFiles, decideRemoveFile } from './decide-files.js';
import { decideReorder, type ReorderInput } from './decide-reorder.js';
import { AT_RISK_DAYS, isAtRisk, isOverdue } from './at-risk.js';
import {
  can,
  canActOnCase,
  canSeeCase,
  isAssignedDoctor,
  stageOwners,
  type Capability,
} from '../permissions/permissions.js';
import type { Actor, Role } from '../permissions/roles.js';
import {
  addDays,
  checkLink,
  checkText,
  isFileUrl,
  isIsoDate,
  LIMITS,
  parseDecimal,
  parseInteger,
} from '../validation/validation.js';

export type RejectionKind = 'not_found' | 'invalid' | 'forbidden' | 'conflict';
export interface Rejection {
  kind: RejectionKind;
  message: string;
  details?: string[];
}
export type Decision = { ok: true; events: CaseEventData[] } | { ok: false; rejection: Rejection };

export interface NewCaseInput {
  patientName?: unknown;
  doctorName?: unknown;
  clinicName?: unknown;
  priority?: unknown;
  deliveryDate?: unknown;
  treatmentPlanNotes?: unknown;
  files?: unknown;
  price?: unknown;
  upperSheets?: unknown;
  lowerSheets?: unknown;
}

export type StagingAction = 'start' | 'complete' | 'reopen' | 'reset';

export type CaseCommand =
  | { type: 'CreateCase'; caseId: string; input: NewCaseInput }
  | { type: 'ApproveCase'; doctorUsername: string; doctor: { username: string; role: Role } | null }
  | { type: 'RejectCase'; reason: unknown }
  | { type: 'AdvanceStage'; fromStatus?: string }
  | { type: 'ApproveTreatmentPlan' }
  | { type: 'RequestChanges'; comment: unknown }
  | { type: 'HoldCase' }
  | { type: 'ResumeCase' }
  | { type: 'EditCase'; fields: Record<string, unknown> }
  | { type: 'UpdatePricing'; price: unknown; upperSheets: unknown; lowerSheets: unknown }
  | { type: 'SaveSimulationLinks'; simulationVideoUrl: unknown; simulationExternalLink: unknown }
  | { type: 'ReassignStage'; stage: string; assignee: unknown; assigneeIsLabUser: boolean }
  | { type: 'GenerateCaseQr' }
  | { type: 'AddNote'; text: unknown }
  | { type: 'ChangeAlignerStage'; stageNumber: number; action: StagingAction }
  | { type: 'ScanAlignerStage'; stageNumber: number }
  | { type: 'DeleteCase' }
  | { type: 'AddFiles'; files: unknown }
  | { type: 'RemoveFile'; url: unknown; reason: unknown }
  | { type: 'OrderFollowUp'; newCaseId: string; input: ReorderInput }
  /** The at-risk scan: alert the Managers if the case is at risk now and was not alerted today. */
  | { type: 'FlagAtRisk'; atRiskDays?: number };

export type CaseCommandType = CaseCommand['type'];

const accept = (...events: CaseEventData[]): Decision => ({ ok: true, events });
const reject = (kind: RejectionKind, message: string, details?: string[]): Decision => ({
  ok: false,
  rejection: details ? { kind, message, details } : { kind, message },
});
const conflict = (message: string) => reject('conflict', message);
const forbidden = (message: string) => reject('forbidden', message);
const invalid = (message: string, details?: string[]) => reject('invalid', message, details);
const notFound = (message: string = CASE_TEXTS.notFound) => reject('not_found', message);

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
      return decideAdvance(state, command.fromStatus, actor);
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
    case 'OrderFollowUp':
      return decideReorder(state, command.newCaseId, command.input, actor);
    case 'FlagAtRisk':
      return decideRisk(state, now, command.atRiskDays ?? AT_RISK_DAYS);
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

function decideAdvance(state: Case, fromStatus: string | undefined, actor: Actor): Decision {
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
  return accept({ type: 'StageAdvanced', data: { from: state.status, to } });
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

type CheckedNewCase = Omit<
  Extract<CaseEventData, { type: 'CaseCreated' }>['data'],
  'id' | 'assignedDoctorUsername' | 'fee'
>;

/** Validates the new-case form; the wizard shows the same messages before it submits. */
export function checkNewCase(
  input: NewCaseInput,
  now: string,
): { value: CheckedNewCase } | { errors: string[] } {
  const errors: string[] = [];
  const text = (label: string, value: unknown, options?: { required?: boolean; max?: number }) => {
    const result = checkText(label, value, options);
    if ('error' in result) errors.push(result.error);
    return 'value' in result ? result.value : '';
  };
  const patientName = text('Patient name', input.patientName, { required: true });
  const doctorName = text('Doctor name', input.doctorName, { required: true });
  const clinicName = text('Clinic name', input.clinicName, { required: true });
  const treatmentPlanNotes = text('Treatment plan notes', input.treatmentPlanNotes, { max: LIMITS.notes });
  const priority = checkPriority(input.priority ?? 'Normal');
  if (!priority) errors.push(CASE_TEXTS.invalidPriority);
  const deliveryDate = checkDeliveryDate(input.deliveryDate);
  if (deliveryDate === undefined) errors.push('Due date must be a date (YYYY-MM-DD).');
  const files = checkFiles(input.files);
  if ('error' in files) errors.push(files.error);
  const pricing = checkPricing(input);
  if ('error' in pricing) errors.push(pricing.error);
  if (errors.length) return { errors };
  return {
    value: {
      patientName,
      doctorName,
      clinicName,
      priority: priority!,
      deliveryDate: deliveryDate ?? addDays(now, DEFAULT_DUE_IN_DAYS),
      treatmentPlanNotes,
      files: 'value' in files ? files.value : [],
      ...('value' in pricing ? pricing.value : { price: null, upperSheets: null, lowerSheets: null }),
    },
  };
}

function checkPriority(value: unknown): Priority | undefined {
  return PRIORITIES.find((priority) => priority === value);
}

/** null = not given (the default applies); undefined = not a date. */
function checkDeliveryDate(value: unknown): string | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  return typeof value === 'string' && isIsoDate(value.slice(0, 10)) && value.length <= 30
    ? value.slice(0, 10)
    : undefined;
}

function checkFiles(value: unknown): { value: CaseFile[] } | { error: string } {
  if (value === undefined || value === null) return { value: [] };
  if (!Array.isArray(value) || value.length > LIMITS.maxFiles) {
    return { error: `Files must be a list of at most ${LIMITS.maxFiles} files.` };
  }
  const files: CaseFile[] = [];
  for (const file of value as Record<string, unknown>[]) {
    const name = checkText('File name', file?.name, { required: true, max: 255 });
    const url = checkText('File url', file?.url, { required: true, max: LIMITS.url });
    const size = checkText('File size', file?.size ?? '', { max: 32 });
    const type = FILE_TYPES.find((candidate) => candidate === file?.type);
    if ('error' in name || 'error' in url || 'error' in size || !type) {
      return { error: 'Each file needs a name, a url, a size and a known type.' };
    }
    if (!isFileUrl(url.value)) {
      return { error: `File url of "${name.value}" must be an http(s) URL or a stored file.` };
    }
    files.push({ name: name.value, type, url: url.value, size: size.value });
  }
  return { value: files };
}

type Pricing = { price: number | null; upperSheets: number | null; lowerSheets: number | null };

/** Non-numeric or empty values are absent (spec); numbers outside sane bounds are refused. */
export function checkPricing(input: {
  price?: unknown;
  upperSheets?: unknown;
  lowerSheets?: unknown;
}): { value: Pricing } | { error: string } {
  const price = parseDecimal(input.price) ?? null;
  const upperSheets = parseInteger(input.upperSheets) ?? null;
  const lowerSheets = parseInteger(input.lowerSheets) ?? null;
  if (price !== null && (price < 0 || price > LIMITS.maxPrice)) {
    return { error: `Price must be between 0 and ${LIMITS.maxPrice}.` };
  }
  for (const sheets of [upperSheets, lowerSheets]) {
    if (sheets !== null && (sheets < 0 || sheets > LIMITS.maxSheets)) {
      return { error: `Sheet counts must be whole numbers between 0 and ${LIMITS.maxSheets}.` };
    }
  }
  return {
    value: { price: price === null ? null : Math.round(price * 100) / 100, upperSheets, lowerSheets },
  };
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

function checkLinks(input: {
  simulationVideoUrl: unknown;
  simulationExternalLink: unknown;
}): { value: { simulationVideoUrl: string; simulationExternalLink: string } } | { error: string } {
  const result = { simulationVideoUrl: '', simulationExternalLink: '' };
  for (const [field, label] of [
    ['simulationVideoUrl', 'Simulation Video URL'],
    ['simulationExternalLink', 'External Simulation Link'],
  ] as const) {
    const link = checkLink(label, input[field]);
    if ('error' in link) return link;
    result[field] = link.value;
  }
  return { value: result };
}

const EDITABLE_FIELDS: readonly EditableCaseField[] = [
  'patientName',
  'doctorName',
  'clinicName',
  'priority',
  'treatmentPlanNotes',
  'simulationVideoUrl',
  'simulationExternalLink',
  'deliveryDate',
];

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
 * Whether the notes (or, from a summary, their count) a client sent back are the case's. A state
 * made from the stored snapshot knows its earlier notes only by count (Case.earlierNotes): those
 * are compared by count, the rest as JSON.
 */
function sameNotes(state: Case, field: 'notes' | 'noteCount', value: unknown): boolean {
  const count = notesSize(state).count;
  if (field === 'noteCount') return value === count;
  if (!Array.isArray(value) || value.length !== count) return false;
  const known = state.notes;
  return sameJson(known, value.slice(count - known.length));
}

/**
 * Equal as JSON: key order does not count, as the case a client sends back has passed through
 * PostgreSQL's jsonb, which orders keys its own way; undefined members count as absent.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameJson(item, b[index]))
    );
  }
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const definedKeys = (value: object) =>
    Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .map(([key]) => key);
  const keys = definedKeys(a);
  const other = b as Record<string, unknown>;
  return (
    keys.length === definedKeys(b).length &&
    keys.every(
      (key) => Object.hasOwn(other, key) && sameJson((a as Record<string, unknown>)[key], other[key]),
    )
  );
}

function checkEditField(field: EditableCaseField, value: unknown): { value: unknown } | { error: string } {
  switch (field) {
    case 'patientName':
      return checkText('Patient name', value, { required: true });
    case 'doctorName':
      return checkText('Doctor name', value, { required: true });
    case 'clinicName':
      return checkText('Clinic name', value, { required: true });
    case 'treatmentPlanNotes':
      return checkText('Treatment plan notes', value, { max: LIMITS.notes });
    case 'priority': {
      const priority = checkPriority(value);
      return priority ? { value: priority } : { error: CASE_TEXTS.invalidPriority };
    }
    case 'deliveryDate': {
      const date = checkDeliveryDate(value);
      return date === undefined ? { error: 'Due date must be a date (YYYY-MM-DD).' } : { value: date };
    }
    case 'simulationVideoUrl':
    case 'simulationExternalLink': {
      const links = checkLinks({ simulationVideoUrl: '', simulationExternalLink: '', [field]: value });
      return 'error' in links ? links : { value: links.value[field] };
    }
  }
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
function decideRisk(state: Case, now: string, atRiskDays: number): Decision {
  const at = new Date(now);
  if (state.deleted || !isAtRisk(state, at, atRiskDays)) return conflict(CASE_TEXTS.notAtRisk);
  const kind = isOverdue(state, at) ? 'overdue' : 'at_risk';
  const day = localDay(at);
  if (state.riskAlerts?.[kind] === day) return conflict(CASE_TEXTS.riskAlreadyAlerted(kind, day));
  return accept({ type: 'CaseAtRisk', data: { kind, day, deliveryDate: state.deliveryDate } });
}
