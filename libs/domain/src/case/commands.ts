/** The commands a case is decided on, as the domain names them. */
import type { ReorderInput } from './decide-reorder.js';
import type { Role } from '../permissions/roles.js';
import type { Lot } from '../materials/lots.js';

/** A lot named at a stage's completion, and the register's lot of that number (null: unknown). */
export interface LotUse {
  lotNumber: string;
  lot: Pick<Lot, 'lotNumber' | 'expiresOn'> | null;
}

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
  | {
      type: 'AdvanceStage';
      fromStatus?: string;
      /** The lots named, each with its registered lot (null: unknown), as the server found them. */
      lots?: LotUse[];
      machine?: unknown;
      /** The lab's rule: Model Printing and Thermoforming need a lot. */
      requireLots?: boolean;
    }
  | { type: 'RecordShipment'; carrier: unknown; trackingNumber: unknown; shippedAt?: unknown }
  | { type: 'MarkReceived' }
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
  | { type: 'EraseCase'; reason: unknown }
  | { type: 'PurgeFile'; url: unknown; reason: unknown }
  | { type: 'OrderFollowUp'; newCaseId: string; input: ReorderInput }
  /** The at-risk scan: alert the Managers if the case is at risk now and was not alerted today. */
  | { type: 'FlagAtRisk'; atRiskDays?: number; transitDays?: number };

export type CaseCommandType = CaseCommand['type'];
