import type { Actor } from '@alignerflow/domain';
import type { CommandOptions } from '../case-command.service.js';
import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class RequestChangesCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly comment: unknown,
  ) {
    super(caseId, actor, options);
  }
}

export const RequestChangesHandler = caseCommandHandler(RequestChangesCommand, (command) => ({
  type: 'RequestChanges',
  comment: command.comment,
}));
