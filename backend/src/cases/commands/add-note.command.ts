import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class AddNoteCommand extends CaseCommandBase<{ text: unknown }> {}

export const AddNoteHandler = caseCommandHandler(AddNoteCommand, ({ input }) => ({
  type: 'AddNote',
  ...input,
}));
