import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class AdvanceStageCommand extends CaseCommandBase<{ fromStatus: string | undefined }> {}

export const AdvanceStageHandler = caseCommandHandler(AdvanceStageCommand, ({ input }) => ({
  type: 'AdvanceStage',
  ...input,
}));
