import type { Actor } from '@alignerflow/domain';
import type { CommandOptions } from '../case-command.service.js';
import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class CompleteAlignerStageCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly stageNumber: number,
  ) {
    super(caseId, actor, options);
  }
}

export const CompleteAlignerStageHandler = caseCommandHandler(CompleteAlignerStageCommand, (command) => ({
  type: 'ChangeAlignerStage',
  stageNumber: command.stageNumber,
  action: 'complete',
}));
