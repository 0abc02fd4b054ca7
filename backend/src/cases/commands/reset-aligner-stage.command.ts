import type { Actor } from '@alignerflow/domain';
import type { CommandOptions } from '../case-command.service.js';
import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class ResetAlignerStageCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly stageNumber: number,
  ) {
    super(caseId, actor, options);
  }
}

export const ResetAlignerStageHandler = caseCommandHandler(ResetAlignerStageCommand, (command) => ({
  type: 'ChangeAlignerStage',
  stageNumber: command.stageNumber,
  action: 'reset',
}));
