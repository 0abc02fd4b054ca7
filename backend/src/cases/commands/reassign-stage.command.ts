import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isStaff, type Actor, type Case } from '@alignerflow/domain';
import { CaseCommandService, type CommandOptions } from '../case-command.service.js';
import { UsersQueries } from '../../users/users.queries.js';
import { CaseCommandBase } from './case-command.base.js';

export class ReassignStageCommand extends CaseCommandBase {
  constructor(
    caseId: string,
    actor: Actor,
    options: CommandOptions,
    readonly stage: string,
    readonly assignee: unknown,
  ) {
    super(caseId, actor, options);
  }
}

/** A manager hands a stage to a lab user (by username) or back to 'Unassigned' / 'Tech Team'. */
@CommandHandler(ReassignStageCommand)
export class ReassignStageHandler implements ICommandHandler<ReassignStageCommand, Case> {
  constructor(
    private readonly cases: CaseCommandService,
    private readonly users: UsersQueries,
  ) {}

  async execute(command: ReassignStageCommand): Promise<Case> {
    const named =
      typeof command.assignee === 'string' && command.assignee.trim() ? command.assignee : undefined;
    const user = named ? await this.users.find(named) : undefined;
    return this.cases.execute(
      command.caseId,
      {
        type: 'ReassignStage',
        stage: command.stage,
        // The stored name is the user's own spelling of it.
        assignee: user?.username ?? command.assignee,
        assigneeIsLabUser: !!user && isStaff(user.role),
      },
      command.actor,
      command.options,
    );
  }
}
