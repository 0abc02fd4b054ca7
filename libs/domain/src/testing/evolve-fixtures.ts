/** Fixtures of the evolve specs: the case fixtures' events, folded through `foldCase`. */
import { foldCase } from '../case/evolve.js';
import { E, road, stamp, type Given } from './case-fixtures.js';

export { T0, time, manager, drLee, stamp } from './case-fixtures.js';

export const createdEvent = E.created({
  id: 'CA-2025-321',
  priority: 'High',
  treatmentPlanNotes: 'Crowding',
  files: [{ name: 'upper.stl', type: 'STL', url: '/u/upper.stl', size: '1.00 MB' }],
  lowerSheets: 4,
});

export const fold = (...events: Given[]) => foldCase(stamp(events))!;

export const approved = E.approved();
export const advance = E.advanced;
/** Created → approved → walked to Completed. */
export const toCompleted = [createdEvent, ...road('Completed').slice(1)];

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
