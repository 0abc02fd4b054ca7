/** The access log (api.md, "Patient data"): who read or exported what, apart from the events. */

export const ACCESS_ACTIONS = ['view', 'download', 'print', 'export'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

/** `GET /cases/{id}/access-log` (Manager), newest first. */
export interface CaseAccessEntry {
  /** ISO time of the read. */
  at: string;
  username: string;
  role: string;
  action: AccessAction;
  /** What was read: "case", "history", a file's name, "statement.pdf", "backup", … */
  detail: string;
  /** The client's address as the server saw it (behind TRUST_PROXY, the forwarded one). */
  address: string;
}

/** `GET /access-log` (Manager): the same across cases; exports have no case. */
export interface AccessEntry extends CaseAccessEntry {
  caseId: string | null;
}

/** `GET /audit/verify`'s `accessLog`: the access log's own hash chain. */
export interface AccessLogVerification {
  ok: boolean;
  /** Entries checked. */
  entries: number;
  /** seq of the first entry that no longer matches its seal, else null. */
  firstBroken: string | null;
}
