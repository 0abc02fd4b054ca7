import type { Actor } from '@alignerflow/domain';
import type { CommandOptions } from '../case-command.service.js';
import { CaseCommandBase, caseCommandHandler } from './case-command.base.js';

export class UpdatePricingCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly pricing: { price: unknown; upperSheets: unknown; lowerSheets: unknown },
  ) {
    super(caseId, actor, options);
  }
}

export const UpdatePricingHandler = caseCommandHandler(UpdatePricingCommand, (command) => ({
  type: 'UpdatePricing',
  ...command.pricing,
}));
