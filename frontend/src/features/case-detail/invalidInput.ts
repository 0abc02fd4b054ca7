import { decide, type Actor, type Case, type CaseCommand } from '@alignerflow/domain';

/** The domain's message for an input the command would refuse (kind 'invalid'), else undefined. */
export function invalidInput(item: Case, actor: Actor, command: CaseCommand): string | undefined {
  const decision = decide(item, command, actor, new Date().toISOString());
  return !decision.ok && decision.rejection.kind === 'invalid' ? decision.rejection.message : undefined;
}
