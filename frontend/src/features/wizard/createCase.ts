import { parseDecimal, parseInteger, type Case, type CreateCaseBody } from '@alignerflow/domain';
import { request } from '../../api/client';
import type { WizardForm } from './wizardSteps';
import type { UploadedFile } from '../../api/uploadFile';

/** POST /cases: the wizard's fields plus the uploaded files ({url, name, size, type}). */
export function createCase(form: WizardForm, files: UploadedFile[]): Promise<Case> {
  return request<Case>('POST', '/cases', {
    body: {
      patientName: form.patientName.trim(),
      doctorName: form.doctorName.trim(),
      clinicName: form.clinicName.trim(),
      priority: form.priority,
      deliveryDate: form.deliveryDate || undefined,
      treatmentPlanNotes: form.treatmentPlanNotes.trim(),
      files,
      price: parseDecimal(form.price),
      upperSheets: parseInteger(form.upperSheets),
      lowerSheets: parseInteger(form.lowerSheets),
    } satisfies CreateCaseBody,
  });
}
