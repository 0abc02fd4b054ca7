import type { Case } from './case.js';
import { ALL_CASE_STATUSES, isActiveStatus, type CaseStatus } from './status.js';
import { stageOwners } from './case-access.js';
import type { Actor, Role } from '../permissions/roles.js';
import { shipByDate } from '../materials/ship-by.js';

/** User-facing texts of the work queue (GET /work-queue and the My Queue screen). */
export const WORK_QUEUE_TEXTS = {
  doctorsHaveNoQueue: 'Doctors have no work queue.',
} as const;

/** What the queue rule reads of a case: a summary or a whole case both fit. */
export type QueueCase = Pick<Case, 'status' | 'onHold' | 'alignerWorkflow'> & { deleted?: boolean };

/**
 * The statuses whose "Complete Stage & Advance" the role may press: the stage ownership table
 * itself, so the queue and the advance decision cannot disagree (a Manager owns every one).
 */
export function queueStatusesOf(role: Role): CaseStatus[] {
  return ALL_CASE_STATUSES.filter((status) => isActiveStatus(status) && stageOwners(status).includes(role));
}

/** Whether the step of the case's current status is assigned to this user (as the advance rule compares). */
export function isCurrentStageAssignedTo(
  item: Pick<Case, 'status' | 'alignerWorkflow'>,
  username: string,
): boolean {
  const step = item.alignerWorkflow?.find((candidate) => candidate.name === item.status);
  return !!step && step.assignedTo === username;
}

/**
 * My Queue: an active case, not held, whose current status the caller's role may advance, or
 * whose current stage is assigned to the caller. Doctors have no queue.
 */
export function isInWorkQueue(item: QueueCase, actor: Actor): boolean {
  if (actor.role === 'Doctor' || item.deleted || item.onHold || !isActiveStatus(item.status)) return false;
  return stageOwners(item.status).includes(actor.role) || isCurrentStageAssignedTo(item, actor.username);
}

type QueueOrderCase = Pick<Case, 'deliveryDate' | 'priority' | 'statusEnteredAt' | 'id' | 'shipments'>;

/**
 * The queue's order: the earliest due date first (none last), then High before Normal, then the
 * case waiting longest in its stage, then the id so the order never depends on the database.
 */
export function compareWorkQueue(a: QueueOrderCase, b: QueueOrderCase): number {
  if (a.deliveryDate !== b.deliveryDate) {
    if (!a.deliveryDate) return 1;
    if (!b.deliveryDate) return -1;
    return a.deliveryDate < b.deliveryDate ? -1 : 1;
  }
  if (a.priority !== b.priority) return a.priority === 'High' ? -1 : 1;
  if (a.statusEnteredAt !== b.statusEnteredAt) return a.statusEnteredAt < b.statusEnteredAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The queue's order by ship-by dates: each due date less the lab's transit days until shipped. */
export function workQueueComparator(transitDays = 0): (a: QueueOrderCase, b: QueueOrderCase) => number {
  if (transitDays <= 0) return compareWorkQueue;
  return (a, b) =>
    compareWorkQueue(
      { ...a, deliveryDate: shipByDate(a, transitDays) },
      { ...b, deliveryDate: shipByDate(b, transitDays) },
    );
}

/** The caller's queue out of a list of cases (the live screen updates its copy with it). */
export function workQueueOf<T extends QueueCase & QueueOrderCase>(
  cases: T[],
  actor: Actor,
  transitDays = 0,
): T[] {
  return cases.filter((item) => isInWorkQueue(item, actor)).sort(workQueueComparator(transitDays));
}
