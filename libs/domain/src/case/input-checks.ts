/** Checks of a command's input, before any rule of the case's state: 400 answers with their texts. */
import {
  DEFAULT_DUE_IN_DAYS,
  FILE_TYPES,
  PRIORITIES,
  type Case,
  type CaseFile,
  type Priority,
} from './case.js';
import type { CaseEventData, EditableCaseField } from './events.js';
import { notesSize } from './notes-bound.js';
import { CASE_TEXTS } from './texts.js';
import {
  addDays,
  checkLink,
  checkText,
  isFileUrl,
  isIsoDate,
  LIMITS,
  parseDecimal,
  parseInteger,
} from '../validation/validation.js';
import type { NewCaseInput } from './commands.js';

export type CheckedNewCase = Omit<
  Extract<CaseEventData, { type: 'CaseCreated' }>['data'],
  'id' | 'assignedDoctorUsername' | 'fee'
>;

/** Validates the new-case form; the wizard shows the same messages before it submits. */
export function checkNewCase(
  input: NewCaseInput,
  now: string,
): { value: CheckedNewCase } | { errors: string[] } {
  const errors: string[] = [];
  const text = (label: string, value: unknown, options?: { required?: boolean; max?: number }) => {
    const result = checkText(label, value, options);
    if ('error' in result) errors.push(result.error);
    return 'value' in result ? result.value : '';
  };
  const patientName = text('Patient name', input.patientName, { required: true });
  const doctorName = text('Doctor name', input.doctorName, { required: true });
  const clinicName = text('Clinic name', input.clinicName, { required: true });
  const treatmentPlanNotes = text('Treatment plan notes', input.treatmentPlanNotes, { max: LIMITS.notes });
  const priority = checkPriority(input.priority ?? 'Normal');
  if (!priority) errors.push(CASE_TEXTS.invalidPriority);
  const deliveryDate = checkDeliveryDate(input.deliveryDate);
  if (deliveryDate === undefined) errors.push('Due date must be a date (YYYY-MM-DD).');
  const files = checkFiles(input.files);
  if ('error' in files) errors.push(files.error);
  const pricing = checkPricing(input);
  if ('error' in pricing) errors.push(pricing.error);
  if (errors.length) return { errors };
  return {
    value: {
      patientName,
      doctorName,
      clinicName,
      priority: priority!,
      deliveryDate: deliveryDate ?? addDays(now, DEFAULT_DUE_IN_DAYS),
      treatmentPlanNotes,
      files: 'value' in files ? files.value : [],
      ...('value' in pricing ? pricing.value : { price: null, upperSheets: null, lowerSheets: null }),
    },
  };
}

export function checkPriority(value: unknown): Priority | undefined {
  return PRIORITIES.find((priority) => priority === value);
}

/** null = not given (the default applies); undefined = not a date. */
export function checkDeliveryDate(value: unknown): string | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  return typeof value === 'string' && isIsoDate(value.slice(0, 10)) && value.length <= 30
    ? value.slice(0, 10)
    : undefined;
}

export function checkFiles(value: unknown): { value: CaseFile[] } | { error: string } {
  if (value === undefined || value === null) return { value: [] };
  if (!Array.isArray(value) || value.length > LIMITS.maxFiles) {
    return { error: `Files must be a list of at most ${LIMITS.maxFiles} files.` };
  }
  const files: CaseFile[] = [];
  for (const file of value as Record<string, unknown>[]) {
    const name = checkText('File name', file?.name, { required: true, max: 255 });
    const url = checkText('File url', file?.url, { required: true, max: LIMITS.url });
    const size = checkText('File size', file?.size ?? '', { max: 32 });
    const type = FILE_TYPES.find((candidate) => candidate === file?.type);
    if ('error' in name || 'error' in url || 'error' in size || !type) {
      return { error: 'Each file needs a name, a url, a size and a known type.' };
    }
    if (!isFileUrl(url.value)) {
      return { error: `File url of "${name.value}" must be an http(s) URL or a stored file.` };
    }
    files.push({ name: name.value, type, url: url.value, size: size.value });
  }
  return { value: files };
}

export type Pricing = { price: number | null; upperSheets: number | null; lowerSheets: number | null };

/** Non-numeric or empty values are absent (spec); numbers outside sane bounds are refused. */
export function checkPricing(input: {
  price?: unknown;
  upperSheets?: unknown;
  lowerSheets?: unknown;
}): { value: Pricing } | { error: string } {
  const price = parseDecimal(input.price) ?? null;
  const upperSheets = parseInteger(input.upperSheets) ?? null;
  const lowerSheets = parseInteger(input.lowerSheets) ?? null;
  if (price !== null && (price < 0 || price > LIMITS.maxPrice)) {
    return { error: `Price must be between 0 and ${LIMITS.maxPrice}.` };
  }
  for (const sheets of [upperSheets, lowerSheets]) {
    if (sheets !== null && (sheets < 0 || sheets > LIMITS.maxSheets)) {
      return { error: `Sheet counts must be whole numbers between 0 and ${LIMITS.maxSheets}.` };
    }
  }
  return {
    value: { price: price === null ? null : Math.round(price * 100) / 100, upperSheets, lowerSheets },
  };
}

export function checkLinks(input: {
  simulationVideoUrl: unknown;
  simulationExternalLink: unknown;
}): { value: { simulationVideoUrl: string; simulationExternalLink: string } } | { error: string } {
  const result = { simulationVideoUrl: '', simulationExternalLink: '' };
  for (const [field, label] of [
    ['simulationVideoUrl', 'Simulation Video URL'],
    ['simulationExternalLink', 'External Simulation Link'],
  ] as const) {
    const link = checkLink(label, input[field]);
    if ('error' in link) return link;
    result[field] = link.value;
  }
  return { value: result };
}

export const EDITABLE_FIELDS: readonly EditableCaseField[] = [
  'patientName',
  'doctorName',
  'clinicName',
  'priority',
  'treatmentPlanNotes',
  'simulationVideoUrl',
  'simulationExternalLink',
  'deliveryDate',
];

/**
 * Whether the notes (or, from a summary, their count) a client sent back are the case's. A state
 * made from the stored snapshot knows its earlier notes only by count (Case.earlierNotes): those
 * are compared by count, the rest as JSON.
 */
export function sameNotes(state: Case, field: 'notes' | 'noteCount', value: unknown): boolean {
  const count = notesSize(state).count;
  if (field === 'noteCount') return value === count;
  if (!Array.isArray(value) || value.length !== count) return false;
  const known = state.notes;
  return sameJson(known, value.slice(count - known.length));
}

/**
 * Equal as JSON: key order does not count, as the case a client sends back has passed through
 * PostgreSQL's jsonb, which orders keys its own way; undefined members count as absent.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameJson(item, b[index]))
    );
  }
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const definedKeys = (value: object) =>
    Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .map(([key]) => key);
  const keys = definedKeys(a);
  const other = b as Record<string, unknown>;
  return (
    keys.length === definedKeys(b).length &&
    keys.every(
      (key) => Object.hasOwn(other, key) && sameJson((a as Record<string, unknown>)[key], other[key]),
    )
  );
}

export function checkEditField(
  field: EditableCaseField,
  value: unknown,
): { value: unknown } | { error: string } {
  switch (field) {
    case 'patientName':
      return checkText('Patient name', value, { required: true });
    case 'doctorName':
      return checkText('Doctor name', value, { required: true });
    case 'clinicName':
      return checkText('Clinic name', value, { required: true });
    case 'treatmentPlanNotes':
      return checkText('Treatment plan notes', value, { max: LIMITS.notes });
    case 'priority': {
      const priority = checkPriority(value);
      return priority ? { value: priority } : { error: CASE_TEXTS.invalidPriority };
    }
    case 'deliveryDate': {
      const date = checkDeliveryDate(value);
      return date === undefined ? { error: 'Due date must be a date (YYYY-MM-DD).' } : { value: date };
    }
    case 'simulationVideoUrl':
    case 'simulationExternalLink': {
      const links = checkLinks({ simulationVideoUrl: '', simulationExternalLink: '', [field]: value });
      return 'error' in links ? links : { value: links.value[field] };
    }
  }
}
