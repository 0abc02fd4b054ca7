import { checkNewCase, type Priority, type Role } from '@alignerflow/domain';
import { WIZARD_TEXTS } from './texts';
import type { UploadedFile } from '../../api/uploadFile';

export type StepId = 'caseInfo' | 'patient' | 'stl' | 'photos' | 'payment' | 'review';

/** Spec section 2: doctors get a Payment step before Review (they pay the case fee). */
export function wizardSteps(role: Role): StepId[] {
  return role === 'Doctor'
    ? ['caseInfo', 'patient', 'stl', 'photos', 'payment', 'review']
    : ['caseInfo', 'patient', 'stl', 'photos', 'review'];
}

export const STEP_LABELS: Record<StepId, string> = WIZARD_TEXTS.steps;

export interface WizardForm {
  patientName: string;
  doctorName: string;
  clinicName: string;
  priority: Priority;
  deliveryDate: string;
  treatmentPlanNotes: string;
  price: string;
  upperSheets: string;
  lowerSheets: string;
}

export type FieldKey = keyof WizardForm | 'sheets' | 'files';
export type FieldErrors = Partial<Record<FieldKey, string>>;

/** Which step shows each field, so a message can send the user back to it. */
export const FIELD_STEP: Record<FieldKey, StepId> = {
  patientName: 'caseInfo',
  doctorName: 'caseInfo',
  clinicName: 'caseInfo',
  priority: 'caseInfo',
  deliveryDate: 'caseInfo',
  treatmentPlanNotes: 'patient',
  price: 'patient',
  upperSheets: 'patient',
  lowerSheets: 'patient',
  sheets: 'patient',
  files: 'review',
};

/** The domain's messages start with the field's label; this only routes them to their input. */
const MESSAGE_FIELDS: [prefix: string, field: FieldKey][] = [
  ['Patient name', 'patientName'],
  ['Doctor name', 'doctorName'],
  ['Clinic name', 'clinicName'],
  ['Treatment plan notes', 'treatmentPlanNotes'],
  ['Priority', 'priority'],
  ['Due date', 'deliveryDate'],
  ['Price', 'price'],
  ['Sheet counts', 'sheets'],
  ['File', 'files'],
  ['Each file', 'files'],
];

/** Validates with the shared rule (`checkNewCase`), the same one the server applies. */
export function validateForm(form: WizardForm, files: UploadedFile[], now: string): FieldErrors {
  const checked = checkNewCase({ ...form, files }, now);
  if (!('errors' in checked)) return {};
  const errors: FieldErrors = {};
  for (const message of checked.errors) {
    const field = MESSAGE_FIELDS.find(([prefix]) => message.startsWith(prefix))?.[1] ?? 'files';
    errors[field] ??= message;
  }
  return errors;
}

export function errorsOfStep(errors: FieldErrors, step: StepId): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).filter(([field]) => FIELD_STEP[field as FieldKey] === step),
  ) as FieldErrors;
}
