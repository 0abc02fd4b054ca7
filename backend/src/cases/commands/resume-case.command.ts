import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class ResumeCaseCommand extends CaseCommandBase {}

export const ResumeCaseHandler = caseCommandHandler(ResumeCaseCommand, () => ({ type: 'ResumeCase' }));
