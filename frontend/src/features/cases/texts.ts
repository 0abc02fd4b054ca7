/** Texts of the case screens that this shell already shows (the full case screens come later). */
export const CASE_SCREEN_TEXTS = {
  backToDashboard: 'Back to Dashboard',
  caseId: 'Case ID',
  patient: 'Patient',
  status: 'Status',
  dueDate: 'Due Date',
  notFound: 'Case not found.',
  detailComing: 'The full case view (workflow, files, pricing and notes) is on its way.',
  editTitle: (id: string) => `Edit Case: ${id}`,
  newCaseTitle: 'New Clear Aligner Case',
  comingSoon: 'This form is on its way.',
  cancel: 'Cancel',
} as const;
