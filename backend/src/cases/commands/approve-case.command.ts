import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Case } from '@alignerflow/domain';
import { CaseCommandService } from '../case-command.service.js';
import { UsersQueries } from '../../users/users.queries.js';
import { CaseCommandBase } from './case-command.base.js';

export class ApproveCaseCommand extends CaseCommandBase<{ doctorUsername: string }> {}

/** The manager approves a new case and assigns one of the lab's doctors. */
@CommandHandler(ApproveCaseCommand)
export class ApproveCaseHandler implements ICommandHandler<ApproveCaseCommand, Case> {
  constructor(
    private readonly cases: CaseCommandService,
    private readonly users: UsersQueries,
  ) {}

  async execute(command: ApproveCaseCommand): Promise<Case> {
    const { doctorUsername } = command.input;
    const doctor = doctorUsername.trim() ? await this.users.find(doctorUsername) : undefined;
    return this.cases.execute(
      command.caseId,
      { type: 'ApproveCase', doctorUsername, doctor: doctor ?? null },
      command.actor,
      command.options,
    );
  }
}
