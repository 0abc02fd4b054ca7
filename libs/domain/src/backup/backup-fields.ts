/** The checks of one field of a backup entry: each brings an older file's value into today's shape or names what is wrong. */
import {
  DEFAULT_ASSIGNEE,
  DEFAULT_STAGE_WEAR_DAYS,
  FILE_TYPES,
  REMAKE_REASON_CODES,
  REORDER_KINDS,
  UNASSIGNED,
  type CaseFee,
  type CaseFile,
  type CaseOrigin,
  type FollowUp,
  type PlanOutcome,
  type PlanVersion,
  type ReorderKind,
  type Note,
  type StageStatus,
  type StagingEntry,
  type WorkflowStep,
} from '../case/case.js';
import { isCaseId } from '../case/case-id.js';
import { notesTextLength } from '../case/notes-bound.js';
import { CASE_STATUSES, parseStatus, STATUS_LABELS, statusIndex, type CaseStatus } from '../case/status.js';
import { parseRole, type Actor } from '../permissions/roles.js';
import {
  checkLink,
  checkText,
  isFileUrl,
  isIsoDate,
  LIMITS,
  parseDecimal,
  parseInteger,
  PLACEHOLDER_FILE_URL,
} from '../validation/validation.js';

export const MAX_LIST = 1000;
export const STAGE_STATUSES: readonly StageStatus[] = ['Not Started', 'In Progress', 'Completed'];
export const DEFAULT_CREATOR: Actor = { username: 'admin', role: 'Manager' };
export type Raw = Record<string, unknown>;
/** A field is wrong: thrown inside one entry's check, caught and named by the entry. */
export class FieldError extends Error {}
export const fail = (message: string): never => {
  throw new FieldError(message);
};

export const PLAN_OUTCOMES: readonly PlanOutcome[] = ['pending', 'approved', 'changes_requested'];

/** A backup's treatment plan versions: kept as they were, each field checked. */
export function planVersions(value: unknown): PlanVersion[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail('planVersions must be a list.');
  return (value as unknown[]).map((raw, index) => {
    if (!isObject(raw)) fail(`planVersions[${index}] must be an object.`);
    const entry = raw as Raw;
    const outcome =
      PLAN_OUTCOMES.find((known) => known === entry.outcome) ??
      fail(`planVersions[${index}].outcome "${String(entry.outcome)}" is unknown.`);
    const maybe = (field: string) =>
      entry[field] === undefined || entry[field] === null
        ? null
        : text(`planVersions[${index}].${field}`, entry[field], { max: LIMITS.reason });
    return {
      version: index + 1,
      simulationVideoUrl: link('simulationVideoUrl', entry.simulationVideoUrl),
      simulationExternalLink: link('simulationExternalLink', entry.simulationExternalLink),
      submittedAt: optionalDateTime(`planVersions[${index}].submittedAt`, entry.submittedAt) ?? '',
      submittedBy: text(`planVersions[${index}].submittedBy`, entry.submittedBy, { max: LIMITS.username }),
      outcome,
      comment: maybe('comment'),
      decidedAt: optionalDateTime(`planVersions[${index}].decidedAt`, entry.decidedAt) ?? null,
      decidedBy: maybe('decidedBy'),
    };
  });
}

export function reorderKind(field: string, value: unknown): ReorderKind {
  return REORDER_KINDS.find((known) => known === value) ?? fail(`${field} "${String(value)}" is unknown.`);
}

export function origin(value: unknown): CaseOrigin | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) fail('origin must be an object.');
  const raw = value as Raw;
  const caseId =
    typeof raw.caseId === 'string' && isCaseId(raw.caseId)
      ? raw.caseId
      : fail('origin.caseId is not a case id.');
  const reasonCode =
    raw.reasonCode === undefined || raw.reasonCode === null
      ? null
      : (REMAKE_REASON_CODES.find((known) => known === raw.reasonCode) ??
        fail(`origin.reasonCode "${String(raw.reasonCode)}" is unknown.`));
  return {
    caseId,
    kind: reorderKind('origin.kind', raw.kind),
    reasonCode,
    reason: text('origin.reason', raw.reason ?? '', { max: LIMITS.reason }),
  };
}

export function followUps(value: unknown): FollowUp[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail('followUps must be a list.');
  return (value as unknown[]).map((raw, index) => {
    if (!isObject(raw)) fail(`followUps[${index}] must be an object.`);
    const entry = raw as Raw;
    const caseId =
      typeof entry.caseId === 'string' && isCaseId(entry.caseId)
        ? entry.caseId
        : fail(`followUps[${index}].caseId is not a case id.`);
    return { caseId, kind: reorderKind(`followUps[${index}].kind`, entry.kind) };
  });
}

/** Steps before the status are done, the rest open; a given workflow keeps its steps, by name. */
export function workflow(value: unknown, status: CaseStatus): WorkflowStep[] {
  const reached =
    status === STATUS_LABELS.Completed ? CASE_STATUSES.length : Math.max(0, statusIndex(status));
  const steps = new Map<CaseStatus, WorkflowStep>();
  if (value !== undefined && value !== null) {
    list('alignerWorkflow', value).forEach((raw, index) => {
      const where = `alignerWorkflow[${index}]`;
      if (!isObject(raw)) fail(`${where} must be an object.`);
      const step = raw as Raw;
      const name = parseStatus(String(step.name ?? ''));
      if (!name || name === STATUS_LABELS.Rejected)
        fail(`${where}.name "${String(step.name)}" is not a workflow status.`);
      if (steps.has(name!)) fail(`${where}.name "${name}" appears twice.`);
      steps.set(name!, {
        name: name!,
        completed: optionalBoolean(`${where}.completed`, step.completed, false),
        date: optionalDateTime(`${where}.date`, step.date) ?? null,
        assignedTo:
          text(`${where}.assignedTo`, step.assignedTo, { max: LIMITS.username }) || DEFAULT_ASSIGNEE,
      });
    });
  }
  return CASE_STATUSES.map(
    (name, index) =>
      steps.get(name) ?? { name, completed: index < reached, date: null, assignedTo: DEFAULT_ASSIGNEE },
  );
}

export function technicians(value: unknown): string[] {
  if (value === undefined || value === null) return [UNASSIGNED];
  const names = list('assignedTechnicians', value).map((name, index) =>
    text(`assignedTechnicians[${index}]`, name, { required: true, max: LIMITS.username }),
  );
  return names.length ? names : [UNASSIGNED];
}

export function files(value: unknown): CaseFile[] {
  if (value === undefined || value === null) return [];
  return list('files', value).map((raw, index) => {
    const where = `files[${index}]`;
    if (!isObject(raw)) fail(`${where} must be an object.`);
    const file = raw as Raw;
    const type =
      FILE_TYPES.find((known) => known === file.type) ??
      fail(`${where}.type "${String(file.type)}" is unknown.`);
    const url = text(`${where}.url`, file.url, { required: true, max: LIMITS.url });
    if (url !== PLACEHOLDER_FILE_URL && !isFileUrl(url))
      fail(`${where}.url must be an http(s) URL or a stored file.`);
    return {
      name: text(`${where}.name`, file.name, { required: true, max: 255 }),
      type,
      url,
      size: text(`${where}.size`, file.size, { max: 32 }),
    };
  });
}

export function notes(value: unknown, createdDate: string): Note[] {
  if (value === undefined || value === null) return [];
  const checked = list('notes', value, LIMITS.notesPerCase).map((raw, index) => {
    const where = `notes[${index}]`;
    if (!isObject(raw)) fail(`${where} must be an object.`);
    const note = raw as Raw;
    const timestamp = optionalDateTime(`${where}.timestamp`, note.timestamp) ?? createdDate;
    return {
      id: text(`${where}.id`, note.id, { max: 100 }) || `note-${Date.parse(timestamp)}-${index + 1}`,
      author: text(`${where}.author`, note.author, { max: LIMITS.username }) || 'unknown',
      role: text(`${where}.role`, note.role, { max: LIMITS.username }),
      text: text(`${where}.text`, note.text, { required: true, max: LIMITS.noteText }),
      timestamp,
    };
  });
  // The bound the commands keep (decide, notesFull): a case never holds more.
  if (notesTextLength(checked) > LIMITS.notesTextPerCase)
    fail(`notes must hold at most ${LIMITS.notesTextPerCase} characters in all.`);
  return checked;
}

export function staging(value: unknown): StagingEntry[] {
  if (value === undefined || value === null) return [];
  const numbers = new Set<number>();
  return list('staging', value).map((raw, index) => {
    const where = `staging[${index}]`;
    if (!isObject(raw)) fail(`${where} must be an object.`);
    const stage = raw as Raw;
    const stageNumber = parseInteger(stage.stageNumber);
    if (stageNumber === undefined || stageNumber < 1 || stageNumber > LIMITS.maxSheets) {
      fail(`${where}.stageNumber must be a whole number from 1 to ${LIMITS.maxSheets}.`);
    }
    if (numbers.has(stageNumber!)) fail(`${where}.stageNumber ${stageNumber} appears twice.`);
    numbers.add(stageNumber!);
    const status =
      STAGE_STATUSES.find((known) => known === stage.status) ??
      fail(`${where}.status "${String(stage.status)}" is unknown.`);
    return {
      stageNumber: stageNumber!,
      status,
      startDate: optionalDateTime(`${where}.startDate`, stage.startDate) ?? null,
      endDate: optionalDateTime(`${where}.endDate`, stage.endDate) ?? null,
    };
  });
}

export function wearDays(value: unknown): number {
  if (value === undefined || value === null || value === '') return DEFAULT_STAGE_WEAR_DAYS;
  const days = parseInteger(value);
  if (days === undefined || days < 1 || days > 365)
    fail('stageWearTimeInDays must be a whole number from 1 to 365.');
  return days!;
}

export function creator(value: unknown): Actor {
  if (value === undefined || value === null) return DEFAULT_CREATOR;
  if (!isObject(value)) fail('createdBy must be an object.');
  const raw = value as Raw;
  const username = text('createdBy.username', raw.username, { required: true, max: LIMITS.username });
  const role = parseRole(raw.role) ?? fail(`createdBy.role "${String(raw.role)}" is unknown.`);
  return { username, role };
}

export function fee(value: unknown): CaseFee | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) fail('fee must be an object or null.');
  const raw = value as Raw;
  const amount = parseDecimal(raw.amount);
  if (amount === undefined || amount < 0) fail('fee.amount must be a number.');
  if (raw.currency !== 'USD') fail('fee.currency must be "USD".');
  const paidAt = optionalDateTime('fee.paidAt', raw.paidAt);
  if (!paidAt) fail('fee.paidAt is required.');
  return { amount: amount!, currency: 'USD', paidAt: paidAt! };
}

export function deliveryDate(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 40 || !isIsoDate(value.trim().slice(0, 10))) {
    fail('deliveryDate must be a date (YYYY-MM-DD).');
  }
  return (value as string).trim().slice(0, 10);
}

export function link(label: string, value: unknown): string {
  const checked = checkLink(label, value);
  if ('error' in checked) fail(checked.error);
  return (checked as { value: string }).value;
}

export function text(
  label: string,
  value: unknown,
  options: { required?: boolean; max?: number } = {},
): string {
  const checked = checkText(label, value, options);
  if ('error' in checked) fail(checked.error);
  return (checked as { value: string }).value;
}

export function optionalName(label: string, value: unknown): string | null {
  return text(label, value, { max: LIMITS.username }) || null;
}

export function optionalBoolean(label: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') fail(`${label} must be true or false.`);
  return value as boolean;
}

/** An ISO date or date-time, kept as written; undefined when absent. */
export function optionalDateTime(label: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (
    typeof value !== 'string' ||
    value.length > 40 ||
    !/^\d{4}-\d{2}-\d{2}/.test(value) ||
    Number.isNaN(Date.parse(value))
  ) {
    fail(`${label} must be an ISO date.`);
  }
  return value as string;
}

export function list(label: string, value: unknown, max = MAX_LIST): unknown[] {
  if (!Array.isArray(value)) fail(`${label} must be a list.`);
  if ((value as unknown[]).length > max) fail(`${label} has more than ${max} entries.`);
  return value as unknown[];
}

export function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
