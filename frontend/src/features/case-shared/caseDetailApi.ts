import type {
  AdvanceStageBody,
  AnalyzePhotoBody,
  ApproveCaseBody,
  AssigneeBody,
  Case,
  CaseDetails,
  CaseEditBody,
  CaseHistoryEntry,
  CaseStatus,
  ExpectedVersion,
  NoteBody,
  PhotoAnalysisAnswer,
  Pricing,
  PricingBody,
  RejectCaseBody,
  RequestChangesBody,
  SimulationLinksBody,
} from '@alignerflow/domain';
import { request } from '../../api/client';

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
      body: { doctorUsername, expectedVersion: item.version } satisfies ApproveCaseBody,
    }),
  reject: (item: Case, reason: string) =>
    request<Case>('POST', path(item.id, '/reject'), {
      body: { reason, expectedVersion: item.version } satisfies RejectCaseBody,
    }),
  /** Completing a stage; at the lot stages with the lots and machine used. */
  advance: (item: Pick<Case, 'id'>, fromStatus: CaseStatus, used?: { lots: string[]; machine: string }) =>
    request<Case>('POST', path(item.id, '/advance'), {
      body: {
        fromStatus,
        ...(used ? { lots: used.lots, ...(used.machine ? { machine: used.machine } : {}) } : {}),
      } satisfies AdvanceStageBody,
    }),
  approveTreatmentPlan: (item: Case) =>
    request<Case>('POST', path(item.id, '/doctor-approve'), {
      body: { expectedVersion: item.version } satisfies ExpectedVersion,
    }),
  requestChanges: (item: Case, comment: string) =>
    request<Case>('POST', path(item.id, '/request-changes'), {
      body: { comment, expectedVersion: item.version } satisfies RequestChangesBody,
    }),
  hold: (item: Pick<Case, 'id' | 'version'>) =>
    request<Case>('POST', path(item.id, '/hold'), {
      body: { expectedVersion: item.version } satisfies ExpectedVersion,
    }),
  resume: (item: Pick<Case, 'id' | 'version'>) =>
    request<Case>('POST', path(item.id, '/resume'), {
      body: { expectedVersion: item.version } satisfies ExpectedVersion,
    }),
  addNote: (item: Case, text: string) =>
    request<Case>('POST', path(item.id, '/notes'), { body: { text } satisfies NoteBody }),
  pricing: (item: Case, pricing: Pricing) =>
    request<Case>('PUT', path(item.id, '/pricing'), {
      body: { ...pricing, expectedVersion: item.version } satisfies PricingBody,
    }),
  simulation: (item: Case, simulationVideoUrl: string, simulationExternalLink: string) =>
    request<Case>('PUT', path(item.id, '/simulation'), {
      body: {
        simulationVideoUrl,
        simulationExternalLink,
        expectedVersion: item.version,
      } satisfies SimulationLinksBody,
    }),
  reassign: (item: Case, stage: CaseStatus, assignee: string) =>
    request<Case>('PUT', path(item.id, `/stages/${enc(stage)}/assignee`), {
      body: { assignee, expectedVersion: item.version } satisfies AssigneeBody,
    }),
  edit: (item: Case, fields: CaseDetails) =>
    request<Case>('PUT', path(item.id), {
      body: { ...fields, expectedVersion: item.version } satisfies CaseEditBody,
    }),
  analyzePhoto: (caseId: string, fileUrl: string) =>
    request<PhotoAnalysisAnswer>('POST', '/ai/analyze-photo', {
      body: { caseId, fileUrl } satisfies AnalyzePhotoBody,
    }),
};
