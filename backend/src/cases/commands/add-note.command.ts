import type { Actor } from '@alignerflow/domain';
import type { CommandOptions } from '../case-command.service.js';
import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class AddNoteCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly text: unknown,
  ) {
    super(caseId, actor, options);
  }
}

export const AddNoteHandler = caseCommandHandler(AddNoteCommand, (command) => ({
  type: 'AddNote',
  text: command.text,
}));
