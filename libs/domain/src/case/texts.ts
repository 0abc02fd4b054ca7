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

/** Texts of the case work after creation: files, remakes and refinements. */
export const CASE_WORK_TEXTS = {
  filesRequired: 'Choose at least one file to add.',
  tooManyFiles: (limit: number) => `Add at most ${limit} files at a time.`,
  fileShape: 'Each file needs a name, a url, a size and a type of STL, Photo or Document.',
  notAnUpload: (name: string) => `"${name}" is not a file uploaded to AlignerFlow.`,
  notYours: 'A case can only carry files you uploaded yourself.',
  alreadyAttached: (name: string) => `"${name}" is already attached to a case.`,
  duplicateFile: (name: string) => `"${name}" is listed twice.`,
  wrongType: (name: string, kind: string) => `"${name}" was uploaded as ${kind}.`,
  fileNotFound: 'File not found.',
  fileUrlRequired: 'Name the url of the file to remove.',
  removeReasonRequired: 'A reason is required to remove a file.',
  reorderOnlyCompleted: 'A remake or refinement can only be ordered for a completed case.',
  reorderRoles: "Only a manager or the case's doctor can order a remake or refinement.",
  reorderKind: 'Kind must be "refinement" or "remake".',
  reasonCode: 'Reason code must be one of lost, broken, poor_fit, lab_error or other.',
  otherReasonRequired: 'Describe the reason when the reason code is "other".',
} as const;

/** How each remake reason code reads on screen. */
export const REMAKE_REASON_LABELS: Record<string, string> = {
  lost: 'Lost',
  broken: 'Broken',
  poor_fit: 'Poor fit',
  lab_error: 'Lab error',
  other: 'Other',
};

/** Upload texts shared by the server's checks and the app's file pickers. */
export const UPLOAD_TEXTS = {
  notPdf: 'Documents must be PDF files.',
  unknownKind: 'The file type must be STL, Photo or Document.',
  tooLarge: (kind: 'STL' | 'Photo' | 'Document') =>
    `The file is too large: ${
      kind === 'STL'
        ? 'STL files up to 200 MB'
        : kind === 'Photo'
          ? 'photos up to 25 MB'
          : 'PDF documents up to 25 MB'
    }.`,
} as const;

/** The server's answers about uploaded files (POST /upload, GET /files, a case taking its uploads). */
export const FILE_TEXTS = {
  notStl: 'The STL slots accept only .stl files.',
  notImage: 'The photo slots accept only images.',
  notPdf: UPLOAD_TEXTS.notPdf,
  tooLarge: UPLOAD_TEXTS.tooLarge,
  unknownKind: UPLOAD_TEXTS.unknownKind,
  noFile: 'Choose a file to upload.',
  badForm: 'An upload is one file part named "file" with the fields type and caseId.',
  interrupted: 'The upload was interrupted.',
  notYours: CASE_WORK_TEXTS.notYours,
  notFound: 'File not found.',
} as const;
