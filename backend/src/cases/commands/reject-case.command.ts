import type { Actor } from '@alignerflow/domain';
import type { CommandOptions } from '../case-command.service.js';
import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class RejectCaseCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly reason: unknown,
  ) {
    super(caseId, actor, options);
  }
}

export const RejectCaseHandler = caseCommandHandler(RejectCaseCommand, (command) => ({
  type: 'RejectCase',
  reason: command.reason,
}));
