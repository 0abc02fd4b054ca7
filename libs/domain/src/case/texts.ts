/** User-facing texts of the case workflow, exactly as the spec and product decisions write them. */
export const CASE_TEXTS = {
  needsManagerApproval: 'This case must be approved by a manager before proceeding.',
  waitingForDoctor: "Waiting for doctor's approval before proceeding.",
  complete: 'This case is complete.',
  rejected: 'This case was rejected.',
  onHold: 'This case is currently on hold. Workflow actions are disabled.',
  onlyCompletedBy: (roles: readonly string[]) =>
    `This stage can only be completed by: ${roles.length ? roles.join(' or ') : 'the assigned user'}`,
  concurrentChange: 'The case was changed by someone else. Reload and try again.',
  notFound: 'Case not found.',
  invalidQr: 'Invalid QR Code',
  invalidPriority: 'Priority must be Normal or High.',
  stageAlreadyStarted: (stage: number) => `Stage ${stage} is already started or completed.`,
  createdNote: (role: string) => `Case created by ${role} and submitted for approval.`,
  approvedNote: (manager: string, doctor: string) =>
    `Case approved by ${manager} and assigned to doctor ${doctor}.`,
  rejectedNote: (reason: string) => `Case rejected: ${reason}`,
  changesRequestedNote: (comment: string) => `Changes requested: ${comment}`,
  reassignedNote: (stage: string, assignee: string, by: string) =>
    `${stage} reassigned to ${assignee} by ${by}.`,
  selfAssignedNote: (stage: string, technician: string) =>
    `${technician} took ${stage} by generating the case QR code.`,
  qrAlreadyAssignedNote: (stage: string, technician: string, owner: string) =>
    `${technician} generated the case QR code; ${stage} stays assigned to ${owner}.`,
  managerOnly: 'Only a manager can do this.',
  notAtRisk: 'This case is not at risk.',
  riskAlreadyAlerted: (kind: string, day: string) =>
    `The ${kind.replace('_', '-')} alert of ${day} was already sent.`,
  chooseDoctor: 'Choose a doctor to approve this case.',
  notADoctor: (username: string) => `"${username}" is not a doctor.`,
  onlyAtPendingApproval: 'Only a case pending approval can be approved or rejected.',
  onlyAtDoctorApproval: 'The treatment plan can only be reviewed at Doctor Approval.',
  onlyAssignedDoctor: 'Only the assigned doctor can review this treatment plan.',
  reasonRequired: 'A reason is required to reject a case.',
  commentRequired: 'A comment is required to request changes.',
  noteEmpty: 'Note cannot be empty.',
  tooManyNotes: (limit: number) =>
    `This case has reached its limit of ${limit.toLocaleString('en-US')} notes. No more notes can be added.`,
  notesTooLarge: (limit: number) =>
    `The notes of this case have reached their limit of ${limit.toLocaleString('en-US')} characters in all. No more notes can be added.`,
  onlyAtDigitalPlanning: 'Simulation links can only be saved at Digital Planning.',
  simulationRoles: 'Only a Designer or a Manager can save simulation links.',
  pricingRoles: 'Only a Manager or a Representative can edit pricing.',
  qrRoles: 'Only users who can act on this case can show its QR code.',
  qrNotYet: 'The case QR code is available once the case is approved.',
  alreadyOnHold: 'This case is already on hold.',
  notOnHold: 'This case is not on hold.',
  createRoles: 'Only a Manager, a Representative or a Doctor can create cases.',
  stagingRoles: 'Only the assigned doctor or a manager can change aligner stages.',
  noStaging: 'This case has no aligner staging.',
  unknownStage: (stage: number) => `Stage ${stage} does not exist.`,
  stageTransition: (stage: number, from: string, action: string) =>
    `Stage ${stage} is ${from} and cannot be ${action}.`,
  unknownWorkflowStage: (name: string) => `Unknown workflow stage "${name}".`,
  assigneeRequired: 'Choose who the stage is assigned to.',
  workflowFieldChanged: (field: string) => `"${field}" cannot be changed by Edit Case.`,
  staleStatus: 'The case was changed by someone else. Reload and try again.',
  tooManyPhotoAnalyses: (minutes: number) => `Too many photo analyses. Try again in ${minutes} minute(s).`,
} as const;

/**
 * AI photo analysis per user: this many requests within the window, which opens at the first one.
 * Each costs a paid model call, so failed analyses count too.
 */
export const PHOTO_ANALYSIS_LIMIT = 30;
export const PHOTO_ANALYSIS_WINDOW_MS = 60 * 60 * 1000;

/** The text of a refused analysis: the wait rounded up to whole minutes, never 0. */
export function tooManyPhotoAnalysesText(retryAfterSeconds: number): string {
  return CASE_TEXTS.tooManyPhotoAnalyses(Math.max(1, Math.ceil(retryAfterSeconds / 60)));
}
