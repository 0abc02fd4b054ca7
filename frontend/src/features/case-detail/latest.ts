import type { Case, CaseSummary } from '@alignerflow/domain';
import { cache } from '../../api/cache';

/**
 * The latest known state of a case: the whole case the cache holds, or a newer summary (from the
 * live stream) with the notes read before it; the given one when the case is no longer cached.
 */
export function latest(item: Case): Case {
  const { cases, details } = cache.get();
  const whole = details[item.id] && details[item.id].version >= item.version ? details[item.id] : item;
  const summary = cases.find((candidate) => candidate.id === item.id);
  return summary && summary.version > whole.version ? withNotesOf(summary, whole) : whole;
}

/** A newer summary with the notes of the whole case read before it. */
export function withNotesOf({ noteCount: _count, ...summary }: CaseSummary, whole: Case): Case {
  return { ...summary, notes: whole.notes };
}
