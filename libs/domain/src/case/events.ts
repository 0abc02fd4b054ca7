import type { Actor } from '../permissions/roles.js';
import type {
  Case,
  CaseFile,
  CaseOrigin,
  Priority,
  RemakeReasonCode,
  ReorderKind,
  StageStatus,
} from './case.js';
import type { CaseStatus } from './status.js';
import type { Carrier } from '../materials/shipping.js';

/** at_risk: due within AT_RISK_DAYS; overdue: the due day has passed. */
export type RiskKind = 'at_risk' | 'overdue';

export interface CaseDetails {
  patientName: string;
  doctorName: string;
  clinicName: string;
  priority: Priority;
  deliveryDate: string | null;
  treatmentPlanNotes: string;
  simulationVideoUrl: string;
  simulationExternalLink: string;
}

export type EditableCaseField = keyof CaseDetails;

/** Every fact of a case's life. Event data is stored as is and never changes once written. */
export type CaseEventData =
  | {
      type: 'CaseCreated';
      data: Omit<CaseDetails, 'simulationVideoUrl' | 'simulationExternalLink'> & {
        id: string;
        assignedDoctorUsername: string | null;
        files: CaseFile[];
        price: number | null;
        upperSheets: number | null;
        lowerSheets: number | null;
        fee: { amount: number; currency: 'USD' } | null;
        /** Only on a remake or refinement: the completed case it follows. */
        origin?: CaseOrigin;
      };
    }
  | { type: 'CaseApproved'; data: { doctorUsername: string } }
  | { type: 'CaseRejected'; data: { reason: string } }
  /** `lots` and `machine`: what the stage completed used, when the user recorded them. */
  | { type: 'StageAdvanced'; data: { from: CaseStatus; to: CaseStatus; lots?: string[]; machine?: string } }
  | { type: 'TreatmentPlanApproved'; data: Record<string, never> }
  | { type: 'ChangesRequested'; data: { comment: string } }
  | { type: 'CaseHeld'; data: Record<string, never> }
  | { type: 'CaseResumed'; data: Record<string, never> }
  | { type: 'CaseDetailsEdited'; data: { changes: Partial<CaseDetails> } }
  | {
      type: 'PricingUpdated';
      data: { price: number | null; upperSheets: number | null; lowerSheets: number | null };
    }
  | { type: 'SimulationLinksSaved'; data: { simulationVideoUrl: string; simulationExternalLink: string } }
  | { type: 'StageAssigneeChanged'; data: { stage: CaseStatus; assignee: string; viaQr: boolean } }
  | { type: 'QrAssignmentKept'; data: { stage: CaseStatus; owner: string } }
  | { type: 'NoteAdded'; data: { text: string } }
  | { type: 'AlignerStageChanged'; data: { stageNumber: number; status: StageStatus; viaScan?: boolean } }
  | { type: 'CaseDeleted'; data: Record<string, never> }
  | { type: 'FilesAdded'; data: { files: CaseFile[] } }
  /** The file leaves the case's list; its stored bytes stay for the audit trail. */
  | { type: 'FileRemoved'; data: { url: string; reason: string } }
  /** On the original case: a remake or refinement was ordered as the new case `caseId`. */
  | {
      type: 'FollowUpOrdered';
      data: { caseId: string; kind: ReorderKind; reasonCode: RemakeReasonCode | null; reason: string };
    }
  /** The Managers were alerted that the case may miss its due date (at most once a day per kind). */
  | { type: 'CaseAtRisk'; data: { kind: RiskKind; day: string; deliveryDate: string | null } }
  /** The case's devices left the lab (trackingUrl is derived from carrier and number). */
  | { type: 'ShipmentRecorded'; data: { carrier: Carrier; trackingNumber: string; shippedAt: string } }
  /** The doctor (or a Manager) confirmed the devices arrived. */
  | { type: 'CaseReceived'; data: Record<string, never> }
  /** The patient data was erased (erasure.ts): the case's key is destroyed with it. */
  | { type: 'CaseErased'; data: { reason: string } }
  /** A file's bytes were deleted for good (a misfiled photo); it leaves the list. */
  | { type: 'FilePurged'; data: { url: string; reason: string } }
  /** A case brought in whole by a restore; its earlier history lives in the backup, not here. */
  | { type: 'CaseImported'; data: { case: Omit<Case, 'version'> } };

export type CaseEventType = CaseEventData['type'];

/** An event as evolve sees it: what happened, by whom, when. */
export type CaseEvent = CaseEventData & { actor: Actor; at: string };

export const CASE_EVENT_TYPES: readonly CaseEventType[] = [
  'CaseCreated',
  'CaseApproved',
  'CaseRejected',
  'StageAdvanced',
  'TreatmentPlanApproved',
  'ChangesRequested',
  'CaseHeld',
  'CaseResumed',
  'CaseDetailsEdited',
  'PricingUpdated',
  'SimulationLinksSaved',
  'StageAssigneeChanged',
  'QrAssignmentKept',
  'NoteAdded',
  'AlignerStageChanged',
  'CaseDeleted',
  'CaseImported',
  'FilesAdded',
  'FileRemoved',
  'FollowUpOrdered',
  'CaseAtRisk',
  'ShipmentRecorded',
  'CaseReceived',
  'CaseErased',
  'FilePurged',
];

export function caseStreamId(caseId: string): string {
  return `case-${caseId}`;
}

/** The marker a restore appends before its import events (stream 'system-restores'). */
export const RESTORE_MARKER = 'BackupRestored';
