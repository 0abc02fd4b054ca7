import type { StagingAction } from '@alignerflow/domain';
import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

/** The aligner staging transitions of spec section 4, one named command each. */
abstract class AlignerStageCommand extends CaseCommandBase<{ stageNumber: number }> {}

export class StartAlignerStageCommand extends AlignerStageCommand {}
export class CompleteAlignerStageCommand extends AlignerStageCommand {}
export class ReopenAlignerStageCommand extends AlignerStageCommand {}
export class ResetAlignerStageCommand extends AlignerStageCommand {}

const stagingHandler = (commandType: typeof StartAlignerStageCommand, action: StagingAction) =>
  caseCommandHandler(commandType, (command) => ({
    type: 'ChangeAlignerStage',
    stageNumber: command.input.stageNumber,
    action,
  }));

export const StartAlignerStageHandler = stagingHandler(StartAlignerStageCommand, 'start');
export const CompleteAlignerStageHandler = stagingHandler(CompleteAlignerStageCommand, 'complete');
export const ReopenAlignerStageHandler = stagingHandler(ReopenAlignerStageCommand, 'reopen');
export const ResetAlignerStageHandler = stagingHandler(ResetAlignerStageCommand, 'reset');
