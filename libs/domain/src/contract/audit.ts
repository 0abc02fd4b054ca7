/** `GET /audit/verify?caseId=…` (api.md, Security: tamper evidence), Manager only. */

/** One case's events checked against their seals, and how many are not sealed yet. */
export interface CaseVerification {
  ok: boolean;
  caseId: string;
  /** Sealed events checked. */
  events: number;
  /** Events newer than the last seal (sealed within seconds). */
  unsealed: number;
  /** Global position of the first event that no longer matches its seal, else null. */
  firstBroken: string | null;
}
