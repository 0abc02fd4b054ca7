import type { Actor } from '../permissions/roles.js';

/**
 * Who acted for an event no user wrote (the first admin's creation, an older log without an
 * actor): the system itself, with a Manager's authority. The history shows it, and folding a
 * case's events uses it, so both read the same author.
 */
export const SYSTEM_ACTOR: Actor = { username: 'system', role: 'Manager' };

/** One entry of `GET /cases/{id}/history`: the case's audit trail, oldest first. */
export interface CaseHistoryEntry {
  /** The event's global position in the log (bigint, hence a string). */
  position: string;
  /** The case's version after this event. */
  version: number;
  type: string;
  data: Record<string, unknown> | null;
  actor: Actor;
  /** ISO 8601. */
  at: string;
}
