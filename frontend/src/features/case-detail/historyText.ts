import { evolve, formatPrice, REMAKE_REASON_LABELS, type Case, type CaseEvent } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import type { CaseHistoryEntry } from '@alignerflow/domain';
import { deviceHistory, materialDetails } from './deviceHistory';
import { erasureHistory } from './erasureHistory';
import { CASE_DETAIL_TEXTS, FIELD_LABELS, HISTORY_TEXTS as H } from './texts';

export interface HistoryDetail {
  label: string;
  value: string;
}

export interface HistoryLine {
  key: string;
  sentence: string;
  who: string;
  at: string;
  details: HistoryDetail[];
}

type Data = Record<string, unknown>;

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value == null ? '' : String(value);

/** How a field's value reads in the history. */
function show(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') {
    return field === 'price' || field.endsWith('Sheets') || field === 'deliveryDate'
      ? CASE_DETAIL_TEXTS.notAvailable
      : H.empty;
  }
  if (field === 'price') return typeof value === 'number' ? formatPrice(value) : text(value);
  if (field === 'deliveryDate') return formatDate(text(value));
  return text(value);
}

/** The changed fields of an edit, with the value before when the earlier events tell it. */
function changes(fields: Data, before: Case | null): HistoryDetail[] {
  return Object.entries(fields)
    .filter(([field]) => field in FIELD_LABELS)
    .filter(([field, value]) => !before || (before as unknown as Data)[field] !== value)
    .map(([field, value]) => ({
      label: FIELD_LABELS[field],
      value: before
        ? H.changed(show(field, (before as unknown as Data)[field]), show(field, value))
        : show(field, value),
    }));
}

function describe(
  entry: CaseHistoryEntry,
  before: Case | null,
): { sentence: string; details: HistoryDetail[] } {
  const who = entry.actor.username;
  const data: Data = entry.data ?? {};
  switch (entry.type) {
    case 'CaseCreated': {
      const fee = data.fee as { amount?: number } | null | undefined;
      const details = ['patientName', 'doctorName', 'clinicName', 'priority', 'deliveryDate', 'price']
        .filter((field) => data[field] !== undefined && data[field] !== null && data[field] !== '')
        .map((field) => ({ label: FIELD_LABELS[field], value: show(field, data[field]) }));
      const origin = data.origin as
        { caseId?: string; kind?: string; reasonCode?: string | null; reason?: string } | undefined;
      if (origin?.caseId) {
        return {
          sentence: H.CaseCreatedAsFollowUp(who, text(origin.kind), origin.caseId),
          details: [...reorderDetails(origin), ...details],
        };
      }
      return {
        sentence:
          fee && typeof fee.amount === 'number'
            ? H.CaseCreatedWithFee(who, formatPrice(fee.amount))
            : H.CaseCreated(who),
        details,
      };
    }
    case 'CaseApproved':
      return { sentence: H.CaseApproved(who, text(data.doctorUsername)), details: [] };
    case 'CaseRejected':
      return { sentence: H.CaseRejected(who), details: [{ label: H.reason, value: text(data.reason) }] };
    case 'StageAdvanced':
      return {
        sentence: H.StageAdvanced(who, text(data.from), text(data.to)),
        details: materialDetails(data),
      };
    case 'TreatmentPlanApproved':
      return { sentence: H.TreatmentPlanApproved(who), details: [] };
    case 'ChangesRequested':
      return {
        sentence: H.ChangesRequested(who),
        details: [{ label: H.comment, value: text(data.comment) }],
      };
    case 'CaseHeld':
      return { sentence: H.CaseHeld(who), details: [] };
    case 'CaseResumed':
      return { sentence: H.CaseResumed(who), details: [] };
    case 'CaseDetailsEdited':
      return { sentence: H.CaseDetailsEdited(who), details: changes((data.changes as Data) ?? {}, before) };
    case 'PricingUpdated':
      return { sentence: H.PricingUpdated(who), details: changes(data, before) };
    case 'SimulationLinksSaved':
      return { sentence: H.SimulationLinksSaved(who), details: changes(data, before) };
    case 'StageAssigneeChanged':
      return {
        sentence: data.viaQr
          ? H.StageTakenViaQr(who, text(data.stage))
          : H.StageAssigneeChanged(who, text(data.stage), text(data.assignee)),
        details: [],
      };
    case 'QrAssignmentKept':
      return { sentence: H.QrAssignmentKept(who, text(data.stage), text(data.owner)), details: [] };
    case 'NoteAdded':
      return { sentence: H.NoteAdded(who), details: [{ label: H.note, value: text(data.text) }] };
    case 'AlignerStageChanged': {
      const stage = Number(data.stageNumber);
      const status = text(data.status);
      return {
        sentence: data.viaScan
          ? H.AlignerStageScanned(who, stage, status)
          : H.AlignerStageChanged(who, stage, status),
        details: [],
      };
    }
    case 'CaseDeleted':
      return { sentence: H.CaseDeleted(who), details: [] };
    case 'CaseImported':
      return { sentence: H.CaseImported(who), details: [] };
    case 'FilesAdded': {
      const files = Array.isArray(data.files) ? (data.files as { name?: unknown; type?: unknown }[]) : [];
      return {
        sentence: H.FilesAdded(who, files.length),
        details: files.map((file) => ({ label: text(file.type) || H.file, value: text(file.name) })),
      };
    }
    case 'FileRemoved': {
      const name = before?.files.find((file) => file.url === data.url)?.name ?? fileNameOf(text(data.url));
      return { sentence: H.FileRemoved(who, name), details: [{ label: H.reason, value: text(data.reason) }] };
    }
    case 'FollowUpOrdered':
      return {
        sentence: H.FollowUpOrdered(who, text(data.kind), text(data.caseId)),
        details: reorderDetails(data),
      };
    case 'CaseAtRisk': {
      // The lab's own scan raised it: the sentence names what happened, not the 'system' actor.
      const due = show('deliveryDate', data.deliveryDate);
      return { sentence: data.kind === 'overdue' ? H.CaseOverdue(due) : H.CaseAtRisk(due), details: [] };
    }
    default:
      return (
        deviceHistory(entry.type, who, data) ??
        erasureHistory(entry.type, who, data, before) ?? { sentence: H.unknown(who, entry.type), details: [] }
      );
  }
}

/** A follow-up's reason code and reason, when given. */
function reorderDetails(data: { reasonCode?: unknown; reason?: unknown }): HistoryDetail[] {
  const details: HistoryDetail[] = [];
  const code = text(data.reasonCode);
  if (code) details.push({ label: H.reasonCode, value: REMAKE_REASON_LABELS[code] ?? code });
  if (text(data.reason)) details.push({ label: H.reason, value: text(data.reason) });
  return details;
}

/** The name a stored file's url ends with. */
function fileNameOf(url: string): string {
  const last = url.split('/').pop() ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * The audit trail as sentences, oldest first. The case is folded event by event with the
 * domain's `evolve`, so an edit can say what a field was before it changed.
 */
export function historyLines(entries: CaseHistoryEntry[]): HistoryLine[] {
  let state: Case | null = null;
  return entries.map((entry) => {
    const { sentence, details } = describe(entry, state);
    try {
      const event = {
        type: entry.type,
        data: entry.data ?? {},
        actor: entry.actor,
        at: entry.at,
      } as unknown as CaseEvent;
      state = evolve(state, event);
    } catch {
      state = null; // an event this client does not know: later edits show new values only
    }
    return {
      key: `${entry.position}-${entry.version}`,
      sentence,
      who: H.by(entry.actor.username, entry.actor.role),
      at: entry.at,
      details,
    };
  });
}
