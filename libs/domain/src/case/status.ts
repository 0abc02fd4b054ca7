/** The manufacturing order of spec section 4, by internal name. */
export const WORKFLOW_ORDER = [
  'PendingApproval',
  'ScanReceived',
  'DigitalPlanning',
  'DoctorApproval',
  'ModelPrinting',
  'Thermoforming',
  'TrimmingPolishing',
  'QualityCheck',
  'PackagingLabeling',
  'Delivery',
  'Completed',
] as const;

export type WorkflowStatusKey = (typeof WORKFLOW_ORDER)[number];
/** Rejected is terminal and stands outside the manufacturing order (product decisions). */
export type StatusKey = WorkflowStatusKey | 'Rejected';

export const STATUS_LABELS = {
  PendingApproval: 'Pending Approval',
  ScanReceived: 'Scan Received',
  DigitalPlanning: 'Digital Planning',
  DoctorApproval: 'Doctor Approval',
  ModelPrinting: 'Model Printing',
  Thermoforming: 'Thermoforming',
  TrimmingPolishing: 'Trimming & Polishing',
  QualityCheck: 'Quality Check',
  PackagingLabeling: 'Packaging & Labeling',
  Delivery: 'Delivery to Doctor',
  Completed: 'Completed',
  Rejected: 'Rejected',
} as const satisfies Record<StatusKey, string>;

/** A status as the API and the UI show it (display name). */
export type CaseStatus = (typeof STATUS_LABELS)[StatusKey];

export const CASE_STATUSES: CaseStatus[] = WORKFLOW_ORDER.map((key) => STATUS_LABELS[key]);
export const ALL_CASE_STATUSES: CaseStatus[] = [...CASE_STATUSES, STATUS_LABELS.Rejected];

export const STATUS_COLOURS: Record<StatusKey, string> = {
  PendingApproval: 'red',
  ScanReceived: 'yellow',
  DigitalPlanning: 'blue',
  DoctorApproval: 'yellow',
  ModelPrinting: 'gray',
  Thermoforming: 'green',
  TrimmingPolishing: 'sky',
  QualityCheck: 'pink',
  PackagingLabeling: 'lightgreen',
  Delivery: 'indigo',
  Completed: 'emerald',
  Rejected: 'gray',
};
export const ON_HOLD_COLOUR = 'orange';
export const UNKNOWN_STATUS_COLOUR = 'gray';
export const ON_HOLD_LABEL = 'On Hold';

const KEY_BY_LOWER_NAME = new Map<string, StatusKey>();
for (const [key, label] of Object.entries(STATUS_LABELS) as [StatusKey, string][]) {
  KEY_BY_LOWER_NAME.set(key.toLowerCase(), key);
  KEY_BY_LOWER_NAME.set(label.toLowerCase(), key);
}
// The spec gives 'Delivery' two readings; both name the same status.
KEY_BY_LOWER_NAME.set('delivery', 'Delivery');

/** Accepts a display name or an internal name, any letter case; undefined when unknown. */
export function statusKeyOf(name: string): StatusKey | undefined {
  return KEY_BY_LOWER_NAME.get(String(name).trim().toLowerCase());
}

export function parseStatus(name: string): CaseStatus | undefined {
  const key = statusKeyOf(name);
  return key && STATUS_LABELS[key];
}

export function statusIndex(status: CaseStatus): number {
  return CASE_STATUSES.indexOf(status);
}

export function nextStatus(status: CaseStatus): CaseStatus | undefined {
  const index = statusIndex(status);
  return index >= 0 ? CASE_STATUSES[index + 1] : undefined;
}

export function statusColour(status: string, onHold = false): string {
  if (onHold) return ON_HOLD_COLOUR;
  const key = statusKeyOf(status);
  return key ? STATUS_COLOURS[key] : UNKNOWN_STATUS_COLOUR;
}

export function statusBadgeLabel(status: string, onHold = false): string {
  return onHold ? ON_HOLD_LABEL : status;
}

/** Active = still in the lab's hands: neither Completed nor Rejected. */
export function isActiveStatus(status: CaseStatus): boolean {
  return status !== STATUS_LABELS.Completed && status !== STATUS_LABELS.Rejected;
}
