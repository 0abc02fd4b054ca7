import type { Actor } from '@alignerflow/domain';
import type { CommandOptions } from '../case-command.service.js';
import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class AdvanceStageCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly fromStatus: string | undefined,
  ) {
    super(caseId, actor, options);
  }
}

export const AdvanceStageHandler = caseCommandHandler(AdvanceStageCommand, (command) => ({
  type: 'AdvanceStage',
  fromStatus: command.fromStatus,
}));
