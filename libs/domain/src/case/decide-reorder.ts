import {
  DEFAULT_DUE_IN_DAYS,
  REMAKE_REASON_CODES,
  REORDER_KINDS,
  type Case,
  type RemakeReasonCode,
  type ReorderKind,
} from './case.js';
import type { CaseEventData } from './events.js';
import { STATUS_LABELS } from './status.js';
import { CASE_WORK_TEXTS } from './texts.js';
import { reject, type Decision } from './decision.js';
import { isAssignedDoctor } from './case-access.js';
import type { Actor } from '../permissions/roles.js';
import { addDays, checkText, LIMITS } from '../validation/validation.js';

export interface ReorderInput {
  kind?: unknown;
  reasonCode?: unknown;
  reason?: unknown;
}

type FollowUpOrdered = Extract<CaseEventData, { type: 'FollowUpOrdered' }>['data'];
type CaseCreatedData = Extract<CaseEventData, { type: 'CaseCreated' }>['data'];

/**
 * A remake or refinement of a completed case, ordered by a Manager or the case's doctor. The
 * original records it (FollowUpOrdered, naming the new case); the new case starts with
 * followUpCreated's CaseCreated. The server appends both together.
 */
export function decideReorder(state: Case, newCaseId: string, input: ReorderInput, actor: Actor): Decision {
  if (state.status !== STATUS_LABELS.Completed)
    return reject('conflict', CASE_WORK_TEXTS.reorderOnlyCompleted);
  if (actor.role !== 'Manager' && !isAssignedDoctor(actor, state))
    return reject('forbidden', CASE_WORK_TEXTS.reorderRoles);
  const checked = checkReorder(input);
  if ('error' in checked) return reject('invalid', checked.error);
  return { ok: true, events: [{ type: 'FollowUpOrdered', data: { caseId: newCaseId, ...checked.value } }] };
}

/** The form's own check: the dialog shows the same messages before it sends. */
export function checkReorder(
  input: ReorderInput,
): { value: Omit<FollowUpOrdered, 'caseId'> } | { error: string } {
  const kind = REORDER_KINDS.find((candidate) => candidate === input.kind);
  if (!kind) return { error: CASE_WORK_TEXTS.reorderKind };
  const code = input.reasonCode;
  const absent = code === undefined || code === null || code === '';
  const reasonCode = REMAKE_REASON_CODES.find((candidate) => candidate === code);
  // A refinement is the next round of a treatment: a reason code is welcome, never required.
  if (kind === 'remake' ? !reasonCode : !absent && !reasonCode) return { error: CASE_WORK_TEXTS.reasonCode };
  const reason = checkText('Reason', input.reason ?? '', { max: LIMITS.reason });
  if ('error' in reason) return { error: reason.error };
  if (reasonCode === 'other' && !reason.value) return { error: CASE_WORK_TEXTS.otherReasonRequired };
  return {
    value: {
      kind: kind as ReorderKind,
      reasonCode: (reasonCode ?? null) as RemakeReasonCode | null,
      reason: reason.value,
    },
  };
}

/** The new case of a follow-up: the original's patient, doctor and clinic, back at Pending Approval. */
export function followUpCreated(original: Case, followUp: FollowUpOrdered, now: string): CaseCreatedData {
  return {
    id: followUp.caseId,
    patientName: original.patientName,
    doctorName: original.doctorName,
    clinicName: original.clinicName,
    priority: original.priority,
    deliveryDate: addDays(now, DEFAULT_DUE_IN_DAYS),
    treatmentPlanNotes: '',
    files: [],
    price: null,
    upperSheets: null,
    lowerSheets: null,
    assignedDoctorUsername: original.assignedDoctorUsername,
    fee: null,
    origin: {
      caseId: original.id,
      kind: followUp.kind,
      reasonCode: followUp.reasonCode,
      reason: followUp.reason,
    },
  };
}
