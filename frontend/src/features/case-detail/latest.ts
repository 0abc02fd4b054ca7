import type { Case } from '@alignerflow/domain';
import { cache } from '../../api/cache';

/** The cached (latest known) state of a case, or the given one when it is no longer cached. */
export function latest(item: Case): Case {
  return cache.get().cases.find((candidate) => candidate.id === item.id) ?? item;
}
