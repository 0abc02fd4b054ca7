import type { Case } from './case.js';
import { accept, conflict, forbidden, invalid, notFound, type Decision } from './decision.js';
import { CASE_TEXTS } from './texts.js';
import { STATUS_LABELS } from './status.js';
import type { Actor } from '../permissions/roles.js';
import { checkText, LIMITS } from '../validation/validation.js';

/** The right to erasure and file purges: texts, shown by the API and the app alike. */
export const CASE_ERASURE = {
  erasedName: 'Erased patient',
  erasedText: '[erased]',
  onlyClosed: 'Only a completed or rejected case can be erased.',
  reasonRequired: 'A reason is required.',
  fileNotFound: 'File not found.',
  retentionReason: 'retention',
  retentionRange: 'eraseAfterYears must be a whole number from 1 to 30, or null.',
  // The app's words.
  eraseAction: 'Erase patient data',
  eraseTitle: (caseId: string) => `Erase the patient data of ${caseId}?`,
  eraseExplain:
    'The patient name, notes, plan comments and every file of this case are destroyed for good. ' +
    'The case id, doctor, dates, stages, materials, device record and invoices stay.',
  eraseConfirm: 'Erase for good',
  erased: (at: string, by: string) => `Patient data erased on ${at} by ${by}.`,
  purgeAction: 'Purge',
  purgeTitle: (name: string) => `Purge ${name}?`,
  purgeExplain: 'The file is deleted for good (a misfiled photo); the case keeps a note that it was purged.',
  purgeConfirm: 'Purge file',
  reasonLabel: 'Reason',
  cancel: 'Cancel',
  retentionTitle: 'Data retention',
  retentionExplain:
    'Completed cases older than this are erased automatically each day (reason "retention"). Leave empty to keep them.',
  retentionLabel: 'Erase completed cases after (years)',
  retentionNever: 'Never',
  retentionSaved: 'Retention saved.',
  save: 'Save',
  historyErased: (who: string) => `${who} erased the patient data`,
  historyPurged: (who: string, name: string) => `${who} purged the file ${name}`,
  historyReason: 'Reason',
} as const;

export const MIN_RETENTION_YEARS = 1;
export const MAX_RETENTION_YEARS = 30;

/** Whether `years` is a retention the lab may choose: a whole number 1–30, or null for never. */
export function isRetentionYears(years: unknown): years is number | null {
  return (
    years === null ||
    (Number.isInteger(years) &&
      (years as number) >= MIN_RETENTION_YEARS &&
      (years as number) <= MAX_RETENTION_YEARS)
  );
}

function checkReason(reason: unknown): { value: string } | { error: string } {
  const checked = checkText('Reason', reason, { max: LIMITS.reason });
  if ('error' in checked) return checked;
  return checked.value ? checked : { error: CASE_ERASURE.reasonRequired };
}

/**
 * Erasing a case's patient data (a Manager, or the system for retention): only once the case is
 * Completed or Rejected, and only once. The event carries no erased text, only the reason.
 */
export function decideErase(state: Case, reason: unknown, actor: Actor): Decision {
  if (state.status !== STATUS_LABELS.Completed && state.status !== STATUS_LABELS.Rejected)
    return conflict(CASE_ERASURE.onlyClosed);
  if (actor.role !== 'Manager') return forbidden(CASE_TEXTS.managerOnly);
  if (state.erasedAt) return accept();
  const checked = checkReason(reason);
  if ('error' in checked) return invalid(checked.error);
  return accept({ type: 'CaseErased', data: { reason: checked.value } });
}

/** Purging one file of the case (a Manager, with a reason): it leaves the list, its bytes go. */
export function decidePurgeFile(state: Case, url: unknown, reason: unknown, actor: Actor): Decision {
  if (actor.role !== 'Manager') return forbidden(CASE_TEXTS.managerOnly);
  if (typeof url !== 'string' || !state.files.some((file) => file.url === url))
    return notFound(CASE_ERASURE.fileNotFound);
  const checked = checkReason(reason);
  if ('error' in checked) return invalid(checked.error);
  return accept({ type: 'FilePurged', data: { url, reason: checked.value } });
}

/**
 * The case once erased: what evolve makes of CaseErased. Every text that could name the patient
 * is replaced, authors and times stay; the files are gone. The same whether the earlier events
 * were still readable (the event is being applied as it is appended) or not (a replay after the
 * key was destroyed), so a replay gives the very case the erasure answered.
 */
export function erasedCase(state: Case, by: string, at: string): Case {
  const erased: Case = {
    ...state,
    patientName: CASE_ERASURE.erasedName,
    treatmentPlanNotes: state.treatmentPlanNotes ? CASE_ERASURE.erasedText : '',
    files: [],
    notes: state.notes.map((note) => ({ ...note, text: CASE_ERASURE.erasedText })),
    simulationVideoUrl: '',
    simulationExternalLink: '',
    planVersions: state.planVersions.map((plan) => ({
      ...plan,
      simulationVideoUrl: '',
      simulationExternalLink: '',
      comment: plan.comment === null ? null : CASE_ERASURE.erasedText,
    })),
    origin: state.origin && { ...state.origin, reason: state.origin.reason ? CASE_ERASURE.erasedText : '' },
    erasedAt: at,
    erasedBy: by,
  };
  // A state from the stored snapshot has not read its earlier notes: their rows are erased beside
  // it, and the size the notes bound counts is what those rows now hold.
  if (state.earlierNotes)
    erased.earlierNotes = {
      count: state.earlierNotes.count,
      textLength: state.earlierNotes.count * CASE_ERASURE.erasedText.length,
    };
  return erased;
}
