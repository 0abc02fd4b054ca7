import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class DeleteCaseCommand extends CaseCommandBase {}

export const DeleteCaseHandler = caseCommandHandler(DeleteCaseCommand, () => ({ type: 'DeleteCase' }));
