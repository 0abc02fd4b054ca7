import type { Case, CaseHistoryEntry, CaseStatus, Priority } from '@alignerflow/domain';
import { request } from '../../api/client';

export interface CaseEdit {
  patientName: string;
  doctorName: string;
  clinicName: string;
  priority: Priority;
  treatmentPlanNotes: string;
  simulationVideoUrl: string;
  simulationExternalLink: string;
  deliveryDate: string | null;
}

export interface PricingInput {
  price: number | null;
  upperSheets: number | null;
  lowerSheets: number | null;
}

const enc = encodeURIComponent;
const path = (id: string, rest = '') => `/cases/${enc(id)}${rest}`;

/**
 * The case commands of api.md. Every state-changing command carries the version the user saw
 * (`expectedVersion`), or for advance the status the user saw (`fromStatus`), so a change made
 * meanwhile by someone else answers 409 instead of being overwritten. Notes only add and carry
 * neither: the server re-decides them against the latest state (parallel notes all succeed).
 */
export const caseDetailApi = {
  get: (id: string) => request<Case>('GET', path(id)),
  history: (id: string) => request<CaseHistoryEntry[]>('GET', path(id, '/history')),

  approve: (item: Case, doctorUsername: string) =>
    request<Case>('POST', path(item.id, '/approve'), {
      body: { doctorUsername, expectedVersion: item.version },
    }),
  reject: (item: Case, reason: string) =>
    request<Case>('POST', path(item.id, '/reject'), { body: { reason, expectedVersion: item.version } }),
  advance: (item: Case, fromStatus: CaseStatus) =>
    request<Case>('POST', path(item.id, '/advance'), { body: { fromStatus } }),
  doctorApprove: (item: Case) =>
    request<Case>('POST', path(item.id, '/doctor-approve'), { body: { expectedVersion: item.version } }),
  requestChanges: (item: Case, comment: string) =>
    request<Case>('POST', path(item.id, '/request-changes'), {
      body: { comment, expectedVersion: item.version },
    }),
  hold: (item: Case) =>
    request<Case>('POST', path(item.id, '/hold'), { body: { expectedVersion: item.version } }),
  resume: (item: Case) =>
    request<Case>('POST', path(item.id, '/resume'), { body: { expectedVersion: item.version } }),
  addNote: (item: Case, text: string) => request<Case>('POST', path(item.id, '/notes'), { body: { text } }),
  pricing: (item: Case, pricing: PricingInput) =>
    request<Case>('PUT', path(item.id, '/pricing'), { body: { ...pricing, expectedVersion: item.version } }),
  simulation: (item: Case, simulationVideoUrl: string, simulationExternalLink: string) =>
    request<Case>('PUT', path(item.id, '/simulation'), {
      body: { simulationVideoUrl, simulationExternalLink, expectedVersion: item.version },
    }),
  reassign: (item: Case, stage: CaseStatus, assignee: string) =>
    request<Case>('PUT', path(item.id, `/stages/${enc(stage)}/assignee`), {
      body: { assignee, expectedVersion: item.version },
    }),
  edit: (item: Case, fields: CaseEdit) =>
    request<Case>('PUT', path(item.id), { body: { ...fields, expectedVersion: item.version } }),
  analyzePhoto: (caseId: string, fileUrl: string) =>
    request<{ text: string }>('POST', '/ai/analyze-photo', { body: { caseId, fileUrl } }),
};
