import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class RejectCaseCommand extends CaseCommandBase<{ reason: unknown }> {}

export const RejectCaseHandler = caseCommandHandler(RejectCaseCommand, ({ input }) => ({
  type: 'RejectCase',
  ...input,
}));
