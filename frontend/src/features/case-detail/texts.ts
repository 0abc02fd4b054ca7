import { CASE_TEXTS } from '@alignerflow/domain';
import { CASE_ACTION_TEXTS } from '../case-shared/texts';

/**
 * Every text of the case detail screen and the Edit Case modal. The spec's texts (section 2
 * "Case detail", "Edit Case modal", section 8) are written exactly as the spec writes them; the
 * workflow guidance texts come from the domain (`advanceAvailability`, `CASE_TEXTS`).
 */
export const CASE_DETAIL_TEXTS = {
  ...CASE_ACTION_TEXTS,
  backToDashboard: 'Back to Dashboard',
  loading: 'Loading case...',
  notFound: CASE_TEXTS.notFound,

  // Header and its buttons
  caseActions: 'Case actions',
  priorityHigh: 'High',
  priorityNormal: 'Normal',
  priorityLabel: (priority: string) => `Priority: ${priority}`,
  clinic: 'Clinic',
  doctor: 'Doctor',
  qrCode: 'QR Code',
  stageQrs: 'Stage QRs',
  edit: 'Edit',
  hold: 'Hold',
  resume: 'Resume',

  // Summary row
  summary: 'Case summary',
  status: 'Status',
  created: 'Created',
  dueDate: 'Due Date',
  assignedTechnicians: 'Assigned Technicians',

  onHoldBanner: CASE_TEXTS.onHold,

  // New Case Approval
  newCaseApproval: 'New Case Approval',
  newCaseApprovalHint: 'Assign a doctor to approve and activate this case, or reject it.',
  assignDoctor: 'Assign Doctor',
  noDoctors: 'No doctors available',
  loadingDoctors: 'Loading doctors...',
  rejectCase: 'Reject Case',
  approveActivate: 'Approve & Activate',
  rejectTitle: (id: string) => `Reject Case: ${id}`,
  rejectReason: 'Reason for rejection',
  rejectHint: 'The reason is added to the case notes and sent to whoever submitted the case.',
  reasonRequired: CASE_TEXTS.reasonRequired,

  // Treatment Plan Approval
  treatmentPlanApproval: 'Treatment Plan Approval',
  simulationVideo: 'Simulation video',
  noVideo: 'No Video Provided',
  videoFailed: 'The simulation video could not be loaded here.',
  viewSimulation: 'View Interactive 3D Simulation',
  noExternalLink: 'No interactive simulation link was provided.',
  caseId: 'Case ID',
  patient: 'Patient',
  upperSheets: 'Upper Sheets',
  lowerSheets: 'Lower Sheets',
  finalPrice: 'Final Price',
  approveContinue: 'Approve & Continue to Manufacturing',
  requestChanges: 'Request Changes',
  requestChangesTitle: (id: string) => `Request Changes: ${id}`,
  changesComment: 'What should be changed?',
  changesHint: 'The case returns to Digital Planning; your comment is added to the notes for the designers.',
  commentRequired: CASE_TEXTS.commentRequired,
  send: 'Send',
  cancel: 'Cancel',

  // Workflow Progress
  workflowProgress: 'Workflow Progress',
  stageDone: 'Completed',
  stageCurrent: 'Current stage',
  stageHeld: 'Current stage, on hold',
  stageUpcoming: 'Not started',
  since: (date: string) => `Since ${date}`,
  // No parentheses around the assignee: the button shows the name, and label-in-name checks
  // (WCAG 2.5.3, axe) ignore a parenthetical, so the name must be plain words of the label.
  reassign: (stage: string, assignee: string) => `Reassign ${stage}, assigned to ${assignee}`,
  assignTo: (stage: string) => `Assign ${stage} to`,
  reassignDisabledHeld: 'Reassignment is disabled while the case is on hold.',
  unassigned: 'Unassigned',
  techTeam: 'Tech Team',

  // Prepare for Doctor Approval
  prepareForApproval: 'Prepare for Doctor Approval',
  prepareHint: 'Add the simulation for the doctor, then complete the stage to send it for approval.',
  simulationVideoUrl: 'Simulation Video URL',
  externalSimulationLink: 'External Simulation Link',
  saveLinks: 'Save Links',
  linksSaved: 'Links saved',

  // Case Files
  caseFiles: 'Case Files',
  noFiles: 'No files attached to this case.',
  view: 'View',
  viewFile: (name: string) => `View ${name}`,
  view3d: 'View 3D',
  view3dFile: (name: string) => `View ${name} in 3D`,
  download: 'Download',
  downloadFile: (name: string) => `Download ${name}`,
  open: 'Open',
  openFile: (name: string) => `Open ${name}`,
  openInNewTab: '(opens in a new tab)',
  analyze: 'Analyze with AI',
  analyzeFile: (name: string) => `Analyze ${name} with AI`,
  analyzing: 'Analyzing image with Gemini AI...',
  aiResult: 'AI Quality Analysis',
  aiFailed: 'Failed to analyze image.',
  casePhoto: 'Case Photo',
  externalViewer: 'External Simulation Viewer',
  externalViewerFrame: 'External simulation',
  openExternal: 'Open in new tab',

  // 3D viewer (beyond the spec)
  stlViewerTitle: (name: string) => `3D Review: ${name}`,
  stlLoading: 'Loading 3D model...',
  stlFailed: 'Could not open the 3D model.',
  stlUnreadable: 'The file is not a readable STL model.',
  stlEmpty: 'The file holds no triangles.',
  stlNoWebgl: 'This browser cannot show 3D models (WebGL is not available). Download the file instead.',
  stlHint: 'Drag to orbit, scroll or pinch to zoom, right-drag or two-finger drag to pan.',
  stlCanvas: (name: string) => `3D model ${name}`,
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  resetView: 'Reset view',
  triangles: (count: number) => `${count.toLocaleString()} triangles`,

  // Side tabs
  tabs: 'Case sections',
  detailsTab: 'Details & Actions',
  pricingTab: 'Pricing',
  communicationTab: 'Communication',
  historyTab: 'History',

  // Details & Actions
  advanceHint: (from: string, to: string) => `Completes ${from} and moves the case to ${to}.`,
  details: 'Details',
  type: 'Type',
  assigned: 'Assigned',
  treatmentPlanNotes: 'Treatment Plan Notes',
  noNotes: 'No notes provided.',

  // Pricing
  casePrice: 'Case Price',
  casePriceDollars: 'Case Price ($)',
  editDetails: 'Edit Details',
  save: 'Save',
  notAvailable: 'N/A',

  // Communication
  notes: 'Notes',
  noNotesYet: 'No notes yet.',
  addNote: 'Add Note',
  noteEmpty: CASE_TEXTS.noteEmpty,

  // History
  history: 'Case History',
  historyLoading: 'Loading history...',
  historyEmpty: 'No history recorded.',
  historyFailed: 'Could not load the history.',
  retry: 'Retry',
  newestFirst: 'Newest first',
  oldestFirst: 'Oldest first',
  historyOrder: 'Order',
  // The seal check of the history (tamper evidence), for a Manager
  sealChecking: 'Checking the seals...',
  sealVerified: 'Verified',
  sealIntact: (events: number) => `${events} event${events === 1 ? '' : 's'} sealed and unchanged.`,
  sealPending: (unsealed: number) => `${unsealed} newest event${unsealed === 1 ? '' : 's'} not sealed yet.`,
  sealBroken: 'Tampered',
  sealBrokenAt: (position: string) => `The event at log position ${position} no longer matches its seal.`,
  sealFailed: 'Could not check the seals.',

  // Edit Case modal
  editTitle: (id: string) => `Edit Case: ${id}`,
  patientName: 'Patient Name',
  doctorName: 'Doctor Name',
  clinicName: 'Clinic Name',
  priority: 'Priority',
  saveChanges: 'Save Changes',
  saving: 'Saving...',
  caseUpdated: 'Case updated',
} as const;

/** Readable names of the case fields that history entries list. */
export const FIELD_LABELS: Record<string, string> = {
  patientName: CASE_DETAIL_TEXTS.patientName,
  doctorName: CASE_DETAIL_TEXTS.doctorName,
  clinicName: CASE_DETAIL_TEXTS.clinicName,
  priority: CASE_DETAIL_TEXTS.priority,
  deliveryDate: CASE_DETAIL_TEXTS.dueDate,
  treatmentPlanNotes: CASE_DETAIL_TEXTS.treatmentPlanNotes,
  simulationVideoUrl: CASE_DETAIL_TEXTS.simulationVideoUrl,
  simulationExternalLink: CASE_DETAIL_TEXTS.externalSimulationLink,
  price: CASE_DETAIL_TEXTS.casePrice,
  upperSheets: CASE_DETAIL_TEXTS.upperSheets,
  lowerSheets: CASE_DETAIL_TEXTS.lowerSheets,
};

/** How each event of the audit trail reads ("tech advanced Model Printing → Thermoforming"). */
export const HISTORY_TEXTS = {
  CaseCreated: (who: string) => `${who} created the case`,
  CaseCreatedWithFee: (who: string, fee: string) => `${who} created the case and paid the ${fee} case fee`,
  CaseApproved: (who: string, doctor: string) => `${who} approved the case and assigned it to ${doctor}`,
  CaseRejected: (who: string) => `${who} rejected the case`,
  StageAdvanced: (who: string, from: string, to: string) => `${who} advanced ${from} → ${to}`,
  TreatmentPlanApproved: (who: string) => `${who} approved the treatment plan`,
  ChangesRequested: (who: string) => `${who} requested changes to the treatment plan`,
  CaseHeld: (who: string) => `${who} put the case on hold`,
  CaseResumed: (who: string) => `${who} resumed the case`,
  CaseDetailsEdited: (who: string) => `${who} edited the case details`,
  PricingUpdated: (who: string) => `${who} updated the pricing`,
  SimulationLinksSaved: (who: string) => `${who} saved the simulation links`,
  StageAssigneeChanged: (who: string, stage: string, assignee: string) =>
    `${who} assigned ${stage} to ${assignee}`,
  StageTakenViaQr: (who: string, stage: string) => `${who} took ${stage} by generating the case QR code`,
  QrAssignmentKept: (who: string, stage: string, owner: string) =>
    `${who} generated the case QR code; ${stage} stays assigned to ${owner}`,
  NoteAdded: (who: string) => `${who} added a note`,
  AlignerStageChanged: (who: string, stage: number, status: string) =>
    `${who} set aligner stage ${stage} to ${status}`,
  AlignerStageScanned: (who: string, stage: number, status: string) =>
    `${who} set aligner stage ${stage} to ${status} by scanning a stage QR code`,
  CaseDeleted: (who: string) => `${who} deleted the case`,
  CaseImported: (who: string) => `${who} restored the case from a backup`,
  CaseCreatedAsFollowUp: (who: string, kind: string, original: string) =>
    `${who} ordered this case as a ${kind} of ${original}`,
  FilesAdded: (who: string, count: number) => `${who} added ${count === 1 ? 'a file' : `${count} files`}`,
  FileRemoved: (who: string, name: string) => `${who} removed the file ${name}`,
  FollowUpOrdered: (who: string, kind: string, caseId: string) => `${who} ordered a ${kind}: ${caseId}`,
  file: 'File',
  reasonCode: 'Reason code',
  CaseAtRisk: (due: string) =>
    `The managers were alerted that the case is at risk of missing its due date (${due})`,
  CaseOverdue: (due: string) => `The managers were alerted that the case is overdue (due ${due})`,
  unknown: (who: string, type: string) => `${who}: ${type}`,
  reason: 'Reason',
  comment: 'Comment',
  note: 'Note',
  empty: '(empty)',
  changed: (from: string, to: string) => `${from} → ${to}`,
  by: (username: string, role: string) => `${username} (${role})`,
} as const;
