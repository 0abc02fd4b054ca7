import type { CaseStatus } from './status.js';
import type { Actor } from '../permissions/roles.js';
import type { StageRecord } from './records.js';
import type { Shipment } from '../materials/shipping.js';

export type Priority = 'Normal' | 'High';
export const PRIORITIES: readonly Priority[] = ['Normal', 'High'];
export const CASE_TYPE = 'Clear Aligner';

export type FileType = 'STL' | 'Photo' | 'Document' | 'Simulation Video' | 'External Link';
export const FILE_TYPES: readonly FileType[] = [
  'STL',
  'Photo',
  'Document',
  'Simulation Video',
  'External Link',
];

export interface CaseFile {
  name: string;
  type: FileType;
  url: string;
  /** '1.23 MB', or 'Link' for links. */
  size: string;
}

export interface WorkflowStep {
  name: CaseStatus;
  completed: boolean;
  date: string | null;
  assignedTo: string;
}

/** What the notes bound counts (notes-bound.ts). */
export interface NotesSize {
  count: number;
  /** The characters of every note's text together. */
  textLength: number;
}

export interface Note {
  id: string;
  author: string;
  role: string;
  text: string;
  timestamp: string;
}

export type StageStatus = 'Not Started' | 'In Progress' | 'Completed';

export interface StagingEntry {
  stageNumber: number;
  status: StageStatus;
  startDate: string | null;
  endDate: string | null;
}

export interface CaseFee {
  amount: number;
  currency: 'USD';
  paidAt: string;
}

export type PlanOutcome = 'pending' | 'approved' | 'changes_requested';

/** One treatment plan as the doctor got it at Doctor Approval, and what they decided. */
export interface PlanVersion {
  version: number;
  simulationVideoUrl: string;
  simulationExternalLink: string;
  submittedAt: string;
  submittedBy: string;
  outcome: PlanOutcome;
  /** The change request's comment; null otherwise. */
  comment: string | null;
  decidedAt: string | null;
  decidedBy: string | null;
}

export type ReorderKind = 'refinement' | 'remake';
export const REORDER_KINDS: readonly ReorderKind[] = ['refinement', 'remake'];
export type RemakeReasonCode = 'lost' | 'broken' | 'poor_fit' | 'lab_error' | 'other';
export const REMAKE_REASON_CODES: readonly RemakeReasonCode[] = [
  'lost',
  'broken',
  'poor_fit',
  'lab_error',
  'other',
];

/** Where a remake or refinement comes from. */
export interface CaseOrigin {
  caseId: string;
  kind: ReorderKind;
  reasonCode: RemakeReasonCode | null;
  reason: string;
}

export interface FollowUp {
  caseId: string;
  kind: ReorderKind;
}

/** One shape everywhere: the decider's state, the read model row and the API's Case. */
export interface Case {
  id: string;
  patientName: string;
  doctorName: string;
  clinicName: string;
  assignedDoctorUsername: string | null;
  type: typeof CASE_TYPE;
  status: CaseStatus;
  statusEnteredAt: string;
  priority: Priority;
  onHold: boolean;
  createdDate: string;
  deliveryDate: string | null;
  assignedTechnicians: string[];
  alignerWorkflow: WorkflowStep[];
  files: CaseFile[];
  notes: Note[];
  treatmentPlanNotes: string;
  simulationVideoUrl: string;
  simulationExternalLink: string;
  price: number | null;
  upperSheets: number | null;
  lowerSheets: number | null;
  staging: StagingEntry[];
  stageWearTimeInDays: number;
  createdBy: Actor;
  fee: CaseFee | null;
  /** The treatment plans sent to the doctor, oldest first (plan-versions.ts). */
  planVersions: PlanVersion[];
  /** The completed case this one remakes or refines; null for an ordinary case. */
  origin: CaseOrigin | null;
  /** The remakes and refinements ordered from this case, oldest first. */
  followUps: FollowUp[];
  /**
   * Each stage's completion with who, when and the material lots and machine used (the device
   * record); absent until the first stage is completed, and on cases restored from older backups.
   */
  stageRecords?: StageRecord[];
  /** The shipments of the case's devices, oldest first; absent until the first. */
  shipments?: Shipment[];
  /** When the doctor (or a Manager) marked the devices received; absent until then. */
  receivedAt?: string;
  /** The stream version: how many events made this state. */
  version: number;
  /**
   * The day (YYYY-MM-DD, the lab's) of the last CaseAtRisk of each kind, so that decide alerts
   * once per case, kind and day. Absent until the first alert; nothing else reads it.
   */
  riskAlerts?: { at_risk?: string; overdue?: string };
  /** When and by whom the patient data was erased (CaseErased, erasure.ts); absent until then. */
  erasedAt?: string;
  erasedBy?: string;
  /** Set by CaseDeleted; a deleted case is invisible to every read and command. */
  deleted?: boolean;
  /**
   * Only on a state made from the stored snapshot, whose notes were not read (they are rows of
   * their own): the size of the notes before `notes`, which then holds just the notes added since.
   * Enough to decide and evolve; an answer reads the earlier notes first, so no answer has it.
   */
  earlierNotes?: NotesSize;
}

/**
 * A case as GET /cases and the live stream carry it: every field but `notes`, which `noteCount`
 * replaces, so the list does not grow with a case's notes. The whole case is GET /cases/{id}.
 */
export type CaseSummary = Omit<Case, 'notes' | 'earlierNotes'> & { noteCount: number };

export const DEFAULT_ASSIGNEE = 'Tech Team';
export const UNASSIGNED = 'Unassigned';
export const DEFAULT_STAGE_WEAR_DAYS = 15;
export const DOCTOR_CASE_FEE = 50;
export const DEFAULT_DUE_IN_DAYS = 14;
