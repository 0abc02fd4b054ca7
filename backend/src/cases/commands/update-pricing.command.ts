import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class UpdatePricingCommand extends CaseCommandBase<{
  price: unknown;
  upperSheets: unknown;
  lowerSheets: unknown;
}> {}

export const UpdatePricingHandler = caseCommandHandler(UpdatePricingCommand, ({ input }) => ({
  type: 'UpdatePricing',
  ...input,
}));
