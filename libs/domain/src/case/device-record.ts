import { CASE_TYPE, type Case } from './case.js';
import { STATUS_LABELS, statusIndex } from './status.js';
import { patientInitials } from './patient-initials.js';
import type { MaterialSettings } from '../materials/settings.js';
import type { Shipment } from '../materials/shipping.js';
import type { StageRecord } from './records.js';

/** GET /cases/{id}/device-record. */
export interface DeviceRecord {
  caseId: string;
  patientCode: string;
  prescriber: { name: string; clinic: string };
  manufacturer: { name: string; address: string };
  device: { type: string; upperSheets: number | null; lowerSheets: number | null; steps: number };
  stages: StageRecord[];
  qualityCheck: { by: string | null; at: string } | null;
  shipments: Shipment[];
}

/**
 * The one derivation of the patient's code on a device record and statement: the case id with
 * the patient's initials; an erased case (or one without a name) keeps the id alone.
 */
export function patientCode(item: Pick<Case, 'id' | 'patientName' | 'erasedAt'>): string {
  const initials = item.patientName && !item.erasedAt ? patientInitials(item.patientName) : '';
  return initials && initials !== 'patient' ? `${item.id} (${initials})` : item.id;
}

/** Passed Quality Check: the case is past it in the workflow (the statement may be issued). */
export function hasPassedQualityCheck(item: Pick<Case, 'status'>): boolean {
  if (item.status === STATUS_LABELS.Rejected) return false;
  return statusIndex(item.status) > statusIndex(STATUS_LABELS.QualityCheck);
}

/**
 * The stages completed so far: the records kept since lots were recorded; a case without them
 * (restored from an older backup) gives its workflow's completed steps, with nobody named.
 */
export function completedStages(item: Case): StageRecord[] {
  if (item.stageRecords?.length) return item.stageRecords;
  return item.alignerWorkflow
    .filter((step) => step.completed && step.date)
    .map((step) => ({ status: step.name, completedAt: step.date!, by: null, lots: [], machine: null }));
}

export function deviceRecord(item: Case, settings: MaterialSettings): DeviceRecord {
  const stages = completedStages(item);
  const qc = [...stages].reverse().find((stage) => stage.status === STATUS_LABELS.QualityCheck);
  return {
    caseId: item.id,
    patientCode: patientCode(item),
    prescriber: { name: item.doctorName, clinic: item.clinicName },
    manufacturer: { name: settings.manufacturerName, address: settings.manufacturerAddress },
    device: {
      type: CASE_TYPE,
      upperSheets: item.upperSheets,
      lowerSheets: item.lowerSheets,
      steps: Math.max(item.upperSheets ?? 0, item.lowerSheets ?? 0),
    },
    stages,
    qualityCheck: qc && hasPassedQualityCheck(item) ? { by: qc.by, at: qc.completedAt } : null,
    shipments: item.shipments ?? [],
  };
}

/** The lots a case's stages used, each once, in the order first used. */
export function lotsOf(item: Pick<Case, 'stageRecords'>): string[] {
  return [...new Set((item.stageRecords ?? []).flatMap((stage) => stage.lots))];
}
