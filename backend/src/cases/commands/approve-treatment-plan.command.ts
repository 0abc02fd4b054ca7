import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class ApproveTreatmentPlanCommand extends CaseCommandBase {}

export const ApproveTreatmentPlanHandler = caseCommandHandler(ApproveTreatmentPlanCommand, () => ({
  type: 'ApproveTreatmentPlan',
}));
