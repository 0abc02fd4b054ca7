/** Texts of the Doctor Portal (spec section 2). */
export const DOCTOR_TEXTS = {
  title: 'Doctor Portal',
  welcome: (name: string) => `Welcome, ${name}`,
  welcomeHint: 'Your clear aligner cases at a glance.',
  newCase: 'New Case',
  scanStage: 'Scan Aligner Stage',
  awaitingApproval: 'Awaiting Your Approval',
  activeAndCompleted: 'Active & Completed Cases',
  emptyTitle: 'No Cases Found',
  emptyText: 'You do not have any assigned cases at the moment.',
  viewStaging: 'View Staging',
  type: 'Type',
  dueDate: 'Due Date',
  actionRequired: 'Action Required: Awaiting your approval.',
  awaitingManager: 'Awaiting approval from the lab manager.',
} as const;
