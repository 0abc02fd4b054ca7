import type { Actor } from '@alignerflow/domain';
import type { CommandOptions } from '../case-command.service.js';
import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class EditCaseCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly fields: Record<string, unknown>,
  ) {
    super(caseId, actor, options);
  }
}

export const EditCaseHandler = caseCommandHandler(EditCaseCommand, (command) => ({
  type: 'EditCase',
  fields: command.fields,
}));
