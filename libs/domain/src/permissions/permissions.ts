import type { Case } from '../case/case.js';
import { statusKeyOf, type CaseStatus, type WorkflowStatusKey } from '../case/status.js';
import { sameUsername, type Actor, type Role } from './roles.js';

/**
 * The role table of spec section 6 with the product decisions' answers to its open points.
 * The server enforces it and the UI reads it, so they cannot disagree.
 */
export const CAPABILITIES = {
  createCase: ['Manager', 'Representative', 'Doctor'],
  editCase: ['Manager'],
  deleteCase: ['Manager'],
  holdCase: ['Manager'],
  approveCase: ['Manager'],
  rejectCase: ['Manager'],
  reassignStage: ['Manager'],
  saveSimulation: ['Designer', 'Manager'],
  selfAssignViaQr: ['Technician'],
  editPricing: ['Manager', 'Representative'],
  analyzePhoto: ['Manager', 'Representative', 'Designer', 'Technician'],
  reviewTreatmentPlan: ['Doctor'],
  changeStaging: ['Doctor', 'Manager'],
  viewDashboard: ['Manager', 'Representative', 'Designer', 'Technician'],
  viewWorkQueue: ['Manager', 'Representative', 'Designer', 'Technician'],
  listUsers: ['Manager', 'Representative', 'Designer', 'Technician'],
  manageUsers: ['Manager'],
  backup: ['Manager'],
  viewReports: ['Manager'],
  viewAccessLog: ['Manager'],
  sendNotifications: ['Manager'],
  scanQr: ['Manager', 'Representative', 'Designer', 'Technician', 'Doctor'],
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof CAPABILITIES;

export function can(role: Role, capability: Capability): boolean {
  return (CAPABILITIES[capability] as readonly Role[]).includes(role);
}

/** Who may complete each stage with "Complete Stage & Advance" (spec section 4, stage ownership). */
export const STAGE_OWNERS: Partial<Record<WorkflowStatusKey, readonly Role[]>> = {
  DigitalPlanning: ['Designer', 'Manager'],
  ModelPrinting: ['Technician', 'Manager'],
  Thermoforming: ['Technician', 'Manager'],
  TrimmingPolishing: ['Technician', 'Manager'],
  QualityCheck: ['Technician', 'Manager'],
  PackagingLabeling: ['Representative', 'Manager'],
  Delivery: ['Representative', 'Manager'],
};

export function stageOwners(status: CaseStatus): readonly Role[] {
  const key = statusKeyOf(status);
  return (key && key !== 'Rejected' && STAGE_OWNERS[key]) || [];
}

/** Staff see every case; a doctor sees only the cases assigned to them. */
export function canSeeCase(actor: Actor, theCase: Pick<Case, 'assignedDoctorUsername' | 'deleted'>): boolean {
  if (theCase.deleted) return false;
  return actor.role !== 'Doctor' || sameUsername(theCase.assignedDoctorUsername, actor.username);
}

/** "Users allowed to act on the case": a Manager, or a role owning the current stage. */
export function canActOnCase(actor: Actor, theCase: Pick<Case, 'status'>): boolean {
  return actor.role === 'Manager' || stageOwners(theCase.status).includes(actor.role);
}

export function isAssignedDoctor(actor: Actor, theCase: Pick<Case, 'assignedDoctorUsername'>): boolean {
  return actor.role === 'Doctor' && sameUsername(theCase.assignedDoctorUsername, actor.username);
}
