import {
  CASE_TYPE,
  DEFAULT_ASSIGNEE,
  DEFAULT_STAGE_WEAR_DAYS,
  UNASSIGNED,
  type Case,
  type CaseFile,
  type FileType,
  type StagingEntry,
} from './case.js';
import type { CaseEvent } from './events.js';
import { CASE_STATUSES, STATUS_LABELS, statusIndex, type CaseStatus } from './status.js';
import { CASE_TEXTS } from './texts.js';
import type { Actor } from '../permissions/roles.js';

/** Applies one event to the state it follows. Pure: the same events always give the same case. */
export function evolve(state: Case | null, event: CaseEvent): Case {
  const version = (state?.version ?? 0) + 1;
  if (event.type === 'CaseCreated') return created(event, version);
  if (event.type === 'CaseImported') return { ...structuredClone(event.data.case), version };
  if (!state) throw new Error(`${event.type} cannot start a case stream`);
  const next: Case = { ...state, version };
  const { actor, at } = event;
  switch (event.type) {
    case 'CaseApproved':
      return withNote(
        {
          ...moveTo(next, STATUS_LABELS.DigitalPlanning, at),
          assignedDoctorUsername: event.data.doctorUsername,
        },
        CASE_TEXTS.approvedNote(actor.username, event.data.doctorUsername),
        actor,
        at,
      );
    case 'CaseRejected':
      return withNote(
        { ...next, status: STATUS_LABELS.Rejected, statusEnteredAt: at },
        CASE_TEXTS.rejectedNote(event.data.reason),
        actor,
        at,
      );
    case 'StageAdvanced':
    case 'TreatmentPlanApproved': {
      const to = event.type === 'StageAdvanced' ? event.data.to : STATUS_LABELS.ModelPrinting;
      return to === STATUS_LABELS.Completed ? completed(moveTo(next, to, at)) : moveTo(next, to, at);
    }
    case 'ChangesRequested':
      return withNote(
        moveTo(next, STATUS_LABELS.DigitalPlanning, at),
        CASE_TEXTS.changesRequestedNote(event.data.comment),
        actor,
        at,
      );
    case 'CaseHeld':
      return { ...next, onHold: true };
    case 'CaseResumed':
      return { ...next, onHold: false };
    case 'CaseDetailsEdited': {
      const edited = { ...next, ...event.data.changes };
      return { ...edited, files: withLinkFiles(edited.files, event.data.changes) };
    }
    case 'PricingUpdated':
      return { ...next, ...event.data };
    case 'SimulationLinksSaved': {
      const edited = { ...next, ...event.data };
      return { ...edited, files: withLinkFiles(edited.files, edited) };
    }
    case 'StageAssigneeChanged': {
      const { stage, assignee, viaQr } = event.data;
      const reassigned = {
        ...next,
        alignerWorkflow: next.alignerWorkflow.map((step) =>
          step.name === stage ? { ...step, assignedTo: assignee } : step,
        ),
        assignedTechnicians: withTechnician(next.assignedTechnicians, assignee),
      };
      const text = viaQr
        ? CASE_TEXTS.selfAssignedNote(stage, assignee)
        : CASE_TEXTS.reassignedNote(stage, assignee, actor.username);
      return withNote(reassigned, text, actor, at);
    }
    case 'QrAssignmentKept':
      return withNote(
        next,
        CASE_TEXTS.qrAlreadyAssignedNote(event.data.stage, actor.username, event.data.owner),
        actor,
        at,
      );
    case 'NoteAdded':
      return withNote(next, event.data.text, actor, at);
    case 'AlignerStageChanged':
      return {
        ...next,
        staging: next.staging.map((entry) =>
          entry.stageNumber === event.data.stageNumber
            ? stageWithStatus(entry, event.data.status, at)
            : entry,
        ),
      };
    case 'CaseDeleted':
      return { ...next, deleted: true };
  }
}

export function foldCase(events: CaseEvent[]): Case | null {
  return events.reduce<Case | null>(evolve, null);
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
    version,
  };
  return withNote(base, CASE_TEXTS.createdNote(actor.role), actor, at);
}

/**
 * Enters a status: every step before it is completed (keeping an earlier date), every step from it
 * on is open again — so a plan sent back to Digital Planning reopens the steps it had passed.
 */
function moveTo(state: Case, to: CaseStatus, at: string): Case {
  const target = statusIndex(to);
  const reached = (index: number) => index < target || to === STATUS_LABELS.Completed;
  return {
    ...state,
    status: to,
    statusEnteredAt: at,
    alignerWorkflow: state.alignerWorkflow.map((step, index) =>
      reached(index)
        ? { ...step, completed: true, date: step.date ?? at }
        : { ...step, completed: false, date: null },
    ),
  };
}

/** Completion creates the aligner staging: one stage per sheet of the larger arch. */
function completed(state: Case): Case {
  const stages = Math.max(state.upperSheets ?? 0, state.lowerSheets ?? 0);
  if (stages <= 0 || state.staging.length > 0) return state;
  const staging: StagingEntry[] = Array.from({ length: stages }, (_, index) => ({
    stageNumber: index + 1,
    status: 'Not Started',
    startDate: null,
    endDate: null,
  }));
  return { ...state, staging, stageWearTimeInDays: DEFAULT_STAGE_WEAR_DAYS };
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

function withNote(state: Case, text: string, actor: Actor, at: string): Case {
  const note = {
    id: `note-${Date.parse(at)}-${state.version}`,
    author: actor.username,
    role: actor.role,
    text,
    timestamp: at,
  };
  return { ...state, notes: [...state.notes, note] };
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
