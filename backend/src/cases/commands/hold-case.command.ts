import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class HoldCaseCommand extends CaseCommandBase {}

export const HoldCaseHandler = caseCommandHandler(HoldCaseCommand, () => ({ type: 'HoldCase' }));
