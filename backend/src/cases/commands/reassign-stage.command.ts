import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isStaff, type Case } from '@alignerflow/domain';
import { CaseCommandService } from '../case-command.service.js';
import { UsersQueries } from '../../users/users.queries.js';
import { CaseCommandBase } from './case-command.base.js';

export class ReassignStageCommand extends CaseCommandBase<{ stage: string; assignee: unknown }> {}

/** A manager hands a stage to a lab user (by username) or back to 'Unassigned' / 'Tech Team'. */
@CommandHandler(ReassignStageCommand)
export class ReassignStageHandler implements ICommandHandler<ReassignStageCommand, Case> {
  constructor(
    private readonly cases: CaseCommandService,
    private readonly users: UsersQueries,
  ) {}

  async execute(command: ReassignStageCommand): Promise<Case> {
    const { stage, assignee } = command.input;
    const named = typeof assignee === 'string' && assignee.trim() ? assignee : undefined;
    const user = named ? await this.users.find(named) : undefined;
    return this.cases.execute(
      command.caseId,
      {
        type: 'ReassignStage',
        stage,
        // The stored name is the user's own spelling of it.
        assignee: user?.username ?? assignee,
        assigneeIsLabUser: !!user && isStaff(user.role),
      },
      command.actor,
      command.options,
    );
  }
}
