import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class RequestChangesCommand extends CaseCommandBase<{ comment: unknown }> {}

export const RequestChangesHandler = caseCommandHandler(RequestChangesCommand, ({ input }) => ({
  type: 'RequestChanges',
  ...input,
}));
