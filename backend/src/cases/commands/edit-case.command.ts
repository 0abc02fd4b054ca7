import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class EditCaseCommand extends CaseCommandBase<{ fields: Record<string, unknown> }> {}

export const EditCaseHandler = caseCommandHandler(EditCaseCommand, ({ input }) => ({
  type: 'EditCase',
  ...input,
}));
