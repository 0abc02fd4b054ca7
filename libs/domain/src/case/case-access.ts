import { sameUsername, type Actor, type Role } from '../permissions/roles.js';
import type { Case } from './case.js';
import { statusKeyOf, type CaseStatus, type WorkflowStatusKey } from './status.js';

/*
 * Who may see and act on a case: the case's part of the role rules (permissions/ holds the
 * capabilities, which know nothing of cases), here so that permissions/ never imports case/.
 */

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
