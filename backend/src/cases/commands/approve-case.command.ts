import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Actor, Case } from '@alignerflow/domain';
import { CaseCommandService, type CommandOptions } from '../case-command.service.js';
import { UsersQueries } from '../../users/users.queries.js';
import { CaseCommandBase } from './case-command.base.js';

export class ApproveCaseCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly doctorUsername: string,
  ) {
    super(caseId, actor, options);
  }
}

/** The manager approves a new case and assigns one of the lab's doctors. */
@CommandHandler(ApproveCaseCommand)
export class ApproveCaseHandler implements ICommandHandler<ApproveCaseCommand, Case> {
  constructor(
    private readonly cases: CaseCommandService,
    private readonly users: UsersQueries,
  ) {}

  async execute(command: ApproveCaseCommand): Promise<Case> {
    const doctor = command.doctorUsername.trim() ? await this.users.find(command.doctorUsername) : undefined;
    return this.cases.execute(
      command.caseId,
      { type: 'ApproveCase', doctorUsername: command.doctorUsername, doctor: doctor ?? null },
      command.actor,
      command.options,
    );
  }
}
