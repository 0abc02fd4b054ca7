import { can, type Actor, type Capability } from '@alignerflow/domain';
import { rejectWith } from './domain-rejection.js';

/** The permission table of libs/domain, applied at the HTTP edge for reads and non-case commands. */
export function requireCapability(
  actor: Actor,
  capability: Capability,
  message = 'You are not allowed to do this.',
): void {
  if (!can(actor.role, capability)) rejectWith('forbidden', message);
}
