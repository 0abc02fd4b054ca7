import type { Role } from './roles.js';

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
