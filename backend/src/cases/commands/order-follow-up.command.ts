import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Case, ReorderInput } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { CaseCommandService } from '../case-command.service.js';
import { CaseCommandBase } from './case-command.base.js';
import { freshCaseId, isReservationTaken } from './case-id-allocator.js';

/** POST /cases/{id}/reorders: a remake or refinement of a completed case. */
export class OrderFollowUpCommand extends CaseCommandBase<ReorderInput> {}

/** The new case takes a fresh id, reserved in the transaction that writes both cases. */
@CommandHandler(OrderFollowUpCommand)
export class OrderFollowUpHandler implements ICommandHandler<OrderFollowUpCommand, Case> {
  constructor(
    private readonly cases: CaseCommandService,
    private readonly dataSource: DataSource,
  ) {}

  async execute({ caseId, actor, options, input }: OrderFollowUpCommand): Promise<Case> {
    for (let attempt = 1; ; attempt++) {
      const { id, reserve } = await freshCaseId(this.dataSource);
      try {
        return await this.cases.orderFollowUp(caseId, id, input, actor, {
          ...options,
          beforeAppend: reserve,
        });
      } catch (error) {
        // Only a taken id is worth another try; the case's own 409 (not Completed, stale) is the answer.
        if (!isReservationTaken(error) || attempt >= 10) throw error;
      }
    }
  }
}
