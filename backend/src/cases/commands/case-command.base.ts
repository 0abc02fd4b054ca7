import type { Type } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import type { Actor, Case, CaseCommand } from '@alignerflow/domain';
import { CaseCommandService, type CommandOptions } from '../case-command.service.js';

/** What every case command carries: which case, who asks, the version they saw, and its input. */
export abstract class CaseCommandBase<Input extends object = object> {
  constructor(
    readonly caseId: string,
    readonly actor: Actor,
    readonly options: CommandOptions,
    readonly input: Input = {} as Input,
  ) {}
}

/** A handler whose whole job is to hand the domain command to the shared command path. */
export function caseCommandHandler<C extends CaseCommandBase>(
  commandType: Type<C>,
  toDomain: (command: C) => CaseCommand,
): Type<{ execute(command: C): Promise<Case> }> {
  @CommandHandler(commandType)
  class Handler {
    constructor(readonly cases: CaseCommandService) {}

    execute(command: C): Promise<Case> {
      return this.cases.execute(command.caseId, toDomain(command), command.actor, command.options);
    }
  }
  Object.defineProperty(Handler, 'name', { value: `${commandType.name.replace(/Command$/, '')}Handler` });
  return Handler;
}
