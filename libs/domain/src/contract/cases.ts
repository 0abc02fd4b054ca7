/** The case commands' bodies and their answers besides the Case (api.md, Cases — commands). */
import type { Case } from '../case/case.js';
import type { CaseDetails } from '../case/events.js';

// Bodies are typed as the server accepts them (its DTO classes implement these): a numeric field
// takes a number or a numeric string, a status or priority any text, which the domain then judges
// with the texts of api.md. What the app sends is narrower, and checked against these.

/** Any case command's body may carry the version the user saw: a stale one answers 409. */
export interface ExpectedVersion {
  expectedVersion?: number;
}

/** `POST /cases`'s body: 201 Case, Pending Approval. */
export interface CreateCaseBody {
  patientName: string;
  doctorName: string;
  clinicName: string;
  /** A Priority (Normal when left out). */
  priority?: string;
  deliveryDate?: string | null;
  treatmentPlanNotes?: string;
  /** Uploads of the caller not yet in a case: {url, name, size, type} each (POST /upload's answers). */
  files?: object[];
  price?: number | string | null;
  upperSheets?: number | string | null;
  lowerSheets?: number | string | null;
}

/**
 * `PUT /cases/{id}`'s body: the edit fields (EDITABLE_FIELDS). The whole case may be sent back;
 * its other fields must then be unchanged.
 */
export type CaseEditBody = CaseDetails & ExpectedVersion;

/** `POST /cases/{id}/approve`'s body: the doctor the case is for. */
export interface ApproveCaseBody extends ExpectedVersion {
  doctorUsername: string;
}

/** `POST /cases/{id}/reject`'s body. */
export interface RejectCaseBody extends ExpectedVersion {
  reason: string;
}

/** `POST /cases/{id}/advance`'s body: the status the user saw (a CaseStatus) stands for the version. */
export interface AdvanceStageBody extends ExpectedVersion {
  fromStatus?: string;
  /** The material lots used in the stage being completed (their lot numbers). */
  lots?: string[];
  /** The machine the stage ran on. */
  machine?: string;
}

/** `POST /cases/{id}/request-changes`'s body: the doctor's comment. */
export interface RequestChangesBody extends ExpectedVersion {
  comment: string;
}

/** `POST /cases/{id}/notes`'s body: 201 Case. */
export interface NoteBody extends ExpectedVersion {
  text: string;
}

/** `PUT /cases/{id}/pricing`'s body: non-numeric or empty values are stored as absent. */
export interface PricingBody extends ExpectedVersion {
  price?: number | string | null;
  upperSheets?: number | string | null;
  lowerSheets?: number | string | null;
}

/** `PUT /cases/{id}/simulation`'s body. */
export interface SimulationLinksBody extends ExpectedVersion {
  simulationVideoUrl?: string;
  simulationExternalLink?: string;
}

/** `PUT /cases/{id}/stages/{status}/assignee`'s body. */
export interface AssigneeBody extends ExpectedVersion {
  assignee: string;
}

/** `POST /cases/{id}/qr`: the case (a Technician may just have taken its stage) and its QR payload. */
export interface CaseQrAnswer {
  case: Case;
  payload: string;
}

/** `POST /scan`'s body: what the camera read. */
export interface ScanBody {
  payload: string;
}

/** `POST /scan`: a case QR finds the case, a stage QR starts its stage and completes the one before. */
export type ScanAnswer =
  { kind: 'case'; case: Case } | { kind: 'stage'; case: Case; started: number; completed: number | null };
