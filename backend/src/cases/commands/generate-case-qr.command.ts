import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { casePayload, type CaseQrAnswer } from '@alignerflow/domain';
import { CaseCommandService } from '../case-command.service.js';
import { CaseCommandBase } from './case-command.base.js';

export class GenerateCaseQrCommand extends CaseCommandBase {}

/** Showing the case QR; a Technician doing so takes the current stage (spec section 4). */
@CommandHandler(GenerateCaseQrCommand)
export class GenerateCaseQrHandler implements ICommandHandler<GenerateCaseQrCommand, CaseQrAnswer> {
  constructor(private readonly cases: CaseCommandService) {}

  async execute(command: GenerateCaseQrCommand): Promise<CaseQrAnswer> {
    const updated = await this.cases.execute(
      command.caseId,
      { type: 'GenerateCaseQr' },
      command.actor,
      command.options,
    );
    return { case: updated, payload: casePayload(updated.id) };
  }
}
