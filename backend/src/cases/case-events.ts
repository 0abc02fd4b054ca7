import { SYSTEM_ACTOR, type CaseEvent } from '@alignerflow/domain';
import type { RecordedEvent } from '../event-store/event-store.js';

/** A stored event as the domain's evolve reads it. */
export function toCaseEvent(recorded: RecordedEvent): CaseEvent {
  return {
    type: recorded.type,
    data: recorded.data,
    actor: recorded.metadata.actor ?? SYSTEM_ACTOR,
    at: recorded.recordedAt,
  } as CaseEvent;
}
