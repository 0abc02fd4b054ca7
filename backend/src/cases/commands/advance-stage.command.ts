import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Case } from '@alignerflow/domain';
import { CaseCommandService } from '../case-command.service.js';
import { MaterialsStore } from '../../materials-store/materials.store.js';
import { CaseCommandBase } from './case-command.base.js';

export class AdvanceStageCommand extends CaseCommandBase<{
  fromStatus: string | undefined;
  lots?: string[];
  machine?: string;
}> {}

/** Completes the current stage; the lots named are looked up in the register for the domain to judge. */
@CommandHandler(AdvanceStageCommand)
export class AdvanceStageHandler implements ICommandHandler<AdvanceStageCommand, Case> {
  constructor(
    private readonly cases: CaseCommandService,
    private readonly materials: MaterialsStore,
  ) {}

  async execute(command: AdvanceStageCommand): Promise<Case> {
    const { fromStatus, lots = [], machine } = command.input;
    const [uses, settings] = await Promise.all([this.materials.resolve(lots), this.materials.settings()]);
    return this.cases.execute(
      command.caseId,
      { type: 'AdvanceStage', fromStatus, lots: uses, machine, requireLots: settings.requireLots },
      command.actor,
      command.options,
    );
  }
}
