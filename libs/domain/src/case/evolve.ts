import {
  CASE_TYPE,
  DEFAULT_ASSIGNEE,
  DEFAULT_STAGE_WEAR_DAYS,
  UNASSIGNED,
  type Case,
  type CaseFile,
  type FileType,
  type Note,
  type StagingEntry,
} from './case.js';
import type { CaseEvent } from './events.js';
import { CASE_STATUSES, STATUS_LABELS, statusIndex, type CaseStatus } from './status.js';
import { notesFull } from './notes-bound.js';
import { CASE_TEXTS } from './texts.js';
import { withDecidedPlan, withSubmittedPlan } from './plan-versions.js';
import type { Actor } from '../permissions/roles.js';
import type { StageRecord } from './records.js';
import { trackingUrl } from '../materials/shipping.js';
import { erasedCase } from './erasure.js';

/** Applies one event to the state it follows. Pure: the same events always give the same case. */
/**
 * The events whose evolve changes nothing of a case but its notes (and version): a reader that
 * keeps the rest of the state, such as the case_view row's document, may keep it as it was.
 */
export const NOTES_ONLY_EVENTS: ReadonlySet<CaseEvent['type']> = new Set(['NoteAdded']);

/**
 * The events whose evolve replaces the notes a case already holds; every other event keeps them,
 * the very objects in their order, and may add some after them. A reader that keeps a case's
 * notes between events (the command path's memory, the answer's JSON) keeps them across any
 * other event, and reads them anew after one of these.
 */
export const NOTES_REWRITING_EVENTS: ReadonlySet<CaseEvent['type']> = new Set(['CaseErased']);

export function evolve(state: Case | null, event: CaseEvent): Case {
  return apply(state, event, false);
}

/**
 * evolve for a caller that owns `state` outright — the case object and its `notes`,
 * `alignerWorkflow` and `staging` arrays, which no one else holds (a fold's running state, a
 * rebuild's cache): changes those in place and returns `state` itself (a new case for CaseCreated
 * and CaseImported). Same result as evolve; it spares the copies, and a long stream's notes are
 * not copied on every note. The states it returns are again owned by the caller alone.
 */
export function evolveInPlace(state: Case | null, event: CaseEvent): Case {
  return apply(state, event, true);
}

export function foldCase(events: CaseEvent[]): Case | null {
  // The running state is the fold's own: no one sees it before the end.
  return events.reduce<Case | null>(evolveInPlace, null);
}

/**
 * The rules, once, for evolve and evolveInPlace. `inPlace`: `state` and its notes,
 * alignerWorkflow and staging arrays may be changed. Otherwise the case is copied (shallow) and
 * an array is copied only when the event changes it; everything else is shared with `state`.
 * Array elements (notes, steps, stages) are never changed, only replaced.
 */
function apply(state: Case | null, event: CaseEvent, inPlace: boolean): Case {
  const version = (state?.version ?? 0) + 1;
  if (event.type === 'CaseCreated') return created(event, version);
  if (event.type === 'CaseImported') return imported(event.data.case, version);
  if (!state) throw new Error(`${event.type} cannot start a case stream`);
  const next: Case = inPlace ? state : { ...state };
  next.version = version;
  const { actor, at } = event;
  switch (event.type) {
    case 'CaseApproved':
      recordStage(next, {
        status: next.status,
        completedAt: at,
        by: actor.username,
        lots: [],
        machine: null,
      });
      moveTo(next, STATUS_LABELS.DigitalPlanning, at, inPlace);
      next.assignedDoctorUsername = event.data.doctorUsername;
      addNote(next, CASE_TEXTS.approvedNote(actor.username, event.data.doctorUsername), actor, at, inPlace);
      break;
    case 'CaseRejected':
      next.status = STATUS_LABELS.Rejected;
      next.statusEnteredAt = at;
      addNote(next, CASE_TEXTS.rejectedNote(event.data.reason), actor, at, inPlace);
      break;
    case 'StageAdvanced':
    case 'TreatmentPlanApproved': {
      const to = event.type === 'StageAdvanced' ? event.data.to : STATUS_LABELS.ModelPrinting;
      const used: { lots?: string[]; machine?: string } = event.type === 'StageAdvanced' ? event.data : {};
      recordStage(next, {
        status: next.status,
        completedAt: at,
        by: actor.username,
        lots: used.lots ?? [],
        machine: used.machine ?? null,
      });
      if (event.type === 'TreatmentPlanApproved')
        next.planVersions = withDecidedPlan(next, { outcome: 'approved' }, actor, at);
      else if (to === STATUS_LABELS.DoctorApproval) next.planVersions = withSubmittedPlan(next, actor, at);
      moveTo(next, to, at, inPlace);
      if (to === STATUS_LABELS.Completed) addStaging(next);
      break;
    }
    case 'ChangesRequested':
      next.planVersions = withDecidedPlan(
        next,
        { outcome: 'changes_requested', comment: event.data.comment },
        actor,
        at,
      );
      moveTo(next, STATUS_LABELS.DigitalPlanning, at, inPlace);
      addNote(next, CASE_TEXTS.changesRequestedNote(event.data.comment), actor, at, inPlace);
      break;
    case 'CaseHeld':
      next.onHold = true;
      break;
    case 'CaseResumed':
      next.onHold = false;
      break;
    case 'CaseDetailsEdited':
      assignFields(next, event.data.changes);
      next.files = withLinkFiles(next.files, event.data.changes);
      break;
    case 'PricingUpdated':
      assignFields(next, event.data);
      break;
    case 'SimulationLinksSaved':
      assignFields(next, event.data);
      next.files = withLinkFiles(next.files, next);
      break;
    case 'StageAssigneeChanged': {
      const { stage, assignee, viaQr } = event.data;
      next.alignerWorkflow = replaceItems(next.alignerWorkflow, inPlace, (step) =>
        step.name === stage ? { ...step, assignedTo: assignee } : step,
      );
      next.assignedTechnicians = withTechnician(next.assignedTechnicians, assignee);
      const text = viaQr
        ? CASE_TEXTS.selfAssignedNote(stage, assignee)
        : CASE_TEXTS.reassignedNote(stage, assignee, actor.username);
      addNote(next, text, actor, at, inPlace);
      break;
    }
    case 'QrAssignmentKept':
      addNote(
        next,
        CASE_TEXTS.qrAlreadyAssignedNote(event.data.stage, actor.username, event.data.owner),
        actor,
        at,
        inPlace,
      );
      break;
    case 'NoteAdded':
      addNote(next, event.data.text, actor, at, inPlace);
      break;
    case 'AlignerStageChanged': {
      const { stageNumber, status } = event.data;
      next.staging = replaceItems(next.staging, inPlace, (entry) =>
        entry.stageNumber === stageNumber ? stageWithStatus(entry, status, at) : entry,
      );
      break;
    }
    case 'CaseDeleted':
      next.deleted = true;
      break;
    case 'FilesAdded':
      next.files = [...next.files, ...event.data.files];
      break;
    case 'FileRemoved':
    case 'FilePurged':
      next.files = next.files.filter((file) => file.url !== event.data.url);
      break;
    case 'CaseErased':
      Object.assign(next, erasedCase(next, actor.username, at));
      break;
    case 'FollowUpOrdered':
      next.followUps = [...(next.followUps ?? []), { caseId: event.data.caseId, kind: event.data.kind }];
      break;
    case 'ShipmentRecorded': {
      const { carrier, trackingNumber, shippedAt } = event.data;
      const shipment = {
        carrier,
        trackingNumber,
        trackingUrl: trackingUrl(carrier, trackingNumber),
        shippedAt,
        by: actor.username,
      };
      next.shipments = [...(next.shipments ?? []), shipment];
      break;
    }
    case 'CaseReceived':
      next.receivedAt = at;
      break;
    case 'CaseAtRisk':
      // Only the bookkeeping of alerts: the case itself is as it was.
      next.riskAlerts = { ...next.riskAlerts, [event.data.kind]: event.data.day };
      break;
  }
  return next;
}

function created(event: Extract<CaseEvent, { type: 'CaseCreated' }>, version: number): Case {
  const { data, actor, at } = event;
  const base: Case = {
    id: data.id,
    patientName: data.patientName,
    doctorName: data.doctorName,
    clinicName: data.clinicName,
    assignedDoctorUsername: data.assignedDoctorUsername,
    type: CASE_TYPE,
    status: STATUS_LABELS.PendingApproval,
    statusEnteredAt: at,
    priority: data.priority,
    onHold: false,
    createdDate: at,
    deliveryDate: data.deliveryDate,
    assignedTechnicians: [UNASSIGNED],
    alignerWorkflow: CASE_STATUSES.map((name) => ({
      name,
      completed: false,
      date: null,
      assignedTo: DEFAULT_ASSIGNEE,
    })),
    files: data.files,
    notes: [],
    treatmentPlanNotes: data.treatmentPlanNotes,
    simulationVideoUrl: '',
    simulationExternalLink: '',
    price: data.price,
    upperSheets: data.upperSheets,
    lowerSheets: data.lowerSheets,
    staging: [],
    stageWearTimeInDays: DEFAULT_STAGE_WEAR_DAYS,
    createdBy: actor,
    fee: data.fee && { ...data.fee, paidAt: at },
    planVersions: [],
    origin: data.origin ?? null,
    followUps: [],
    version,
  };
  base.notes.push(note(base, CASE_TEXTS.createdNote(actor.role), actor, at));
  return base;
}

/** A restored case; backups made before plan versions and follow-ups existed have none. */
function imported(theCase: Omit<Case, 'version'>, version: number): Case {
  const copy = structuredClone(theCase) as Case;
  copy.planVersions ??= [];
  copy.origin ??= null;
  copy.followUps ??= [];
  copy.version = version;
  return copy;
}

/** A stage completed: kept for the device record (a new array: records are few). */
function recordStage(state: Case, record: StageRecord): void {
  state.stageRecords = [...(state.stageRecords ?? []), record];
}

/**
 * Enters a status: every step before it is completed (keeping an earlier date), every step from it
 * on is open again — so a plan sent back to Digital Planning reopens the steps it had passed.
 * Only the steps whose state changes are replaced.
 */
function moveTo(state: Case, to: CaseStatus, at: string, inPlace: boolean): void {
  const target = statusIndex(to);
  const all = to === STATUS_LABELS.Completed;
  state.status = to;
  state.statusEnteredAt = at;
  state.alignerWorkflow = replaceItems(state.alignerWorkflow, inPlace, (step, index) => {
    if (all || index < target) {
      const done = step.completed === true && step.date !== null && step.date !== undefined;
      return done ? step : { ...step, completed: true, date: step.date ?? at };
    }
    return step.completed === false && step.date === null ? step : { ...step, completed: false, date: null };
  });
}

/** Completion creates the aligner staging: one stage per sheet of the larger arch. */
function addStaging(state: Case): void {
  const stages = Math.max(state.upperSheets ?? 0, state.lowerSheets ?? 0);
  if (stages <= 0 || state.staging.length > 0) return;
  state.staging = Array.from({ length: stages }, (_, index) => ({
    stageNumber: index + 1,
    status: 'Not Started',
    startDate: null,
    endDate: null,
  }));
  state.stageWearTimeInDays = DEFAULT_STAGE_WEAR_DAYS;
}

export function stageWithStatus(
  entry: StagingEntry,
  status: StagingEntry['status'],
  at: string,
): StagingEntry {
  if (status === 'Not Started') return { ...entry, status, startDate: null, endDate: null };
  const startDate = entry.startDate ?? at;
  return { ...entry, status, startDate, endDate: status === 'Completed' ? at : null };
}

function note(state: Case, text: string, actor: Actor, at: string): Note {
  return {
    id: `note-${Date.parse(at)}-${state.version}`,
    author: actor.username,
    role: actor.role,
    text,
    timestamp: at,
  };
}

/** A person's note past the bounds is refused by decide; the workflow's own notes are left out. */
function addNote(state: Case, text: string, actor: Actor, at: string, inPlace: boolean): void {
  if (notesFull(state, text)) return;
  const added = note(state, text, actor, at);
  if (inPlace) state.notes.push(added);
  else state.notes = [...state.notes, added];
}

/**
 * `items` with `change` applied to each: the same array when nothing changes; else, in place or
 * a copy (made at the first change), each changed element replaced.
 */
function replaceItems<T>(items: T[], inPlace: boolean, change: (item: T, index: number) => T): T[] {
  let result = items;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const changed = change(item, index);
    if (changed === item) continue;
    if (result === items && !inPlace) result = items.slice();
    result[index] = changed;
  }
  return result;
}

/** As `{ ...state, ...fields }` would set them, on `state` itself. */
function assignFields(state: Case, fields: object): void {
  for (const key of Object.keys(fields)) {
    const value = (fields as Record<string, unknown>)[key];
    // A key named __proto__ (JSON.parse makes it an own key) is a field to a spread, not the prototype.
    if (key === '__proto__')
      Object.defineProperty(state, key, { value, writable: true, enumerable: true, configurable: true });
    else (state as unknown as Record<string, unknown>)[key] = value;
  }
}

function withTechnician(technicians: string[], assignee: string): string[] {
  if (assignee === UNASSIGNED || assignee === DEFAULT_ASSIGNEE) return technicians;
  const named = technicians.filter((name) => name !== UNASSIGNED);
  return named.includes(assignee) ? named : [...named, assignee];
}

const LINK_FILES: { type: FileType; name: string; field: 'simulationVideoUrl' | 'simulationExternalLink' }[] =
  [
    { type: 'Simulation Video', name: 'Simulation Video', field: 'simulationVideoUrl' },
    { type: 'External Link', name: 'External Simulation', field: 'simulationExternalLink' },
  ];

/**
 * The simulation links also appear as file entries; an empty link removes its entry. Only the links
 * given are synced, so editing another field never drops a file.
 */
function withLinkFiles(
  files: CaseFile[],
  links: Partial<Pick<Case, 'simulationVideoUrl' | 'simulationExternalLink'>>,
) {
  let result = files;
  for (const { type, name, field } of LINK_FILES) {
    if (!(field in links)) continue;
    const url = links[field];
    const others = result.filter((file) => file.type !== type);
    result = url ? [...others, { name, type, url, size: 'Link' }] : others;
  }
  return result;
}
