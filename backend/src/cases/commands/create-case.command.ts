import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Actor, Case, NewCaseInput } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { CaseCommandService, type CommandOptions } from '../case-command.service.js';
import { claimUploads } from './upload-claims.js';
import { freshCaseId, isIdCollision } from './case-id-allocator.js';

export class CreateCaseCommand {
  constructor(
    readonly input: NewCaseInput,
    readonly actor: Actor,
    readonly options: CommandOptions,
  ) {}
}

/**
 * Creates a case under a fresh random id CA-{year}-{suffix}. The id is reserved in case_ids in the
 * same transaction, so two creations racing for one id cannot both win and no id is ever reused.
 */
@CommandHandler(CreateCaseCommand)
export class CreateCaseHandler implements ICommandHandler<CreateCaseCommand, Case> {
  constructor(
    private readonly cases: CaseCommandService,
    private readonly dataSource: DataSource,
  ) {}

  async execute(command: CreateCaseCommand): Promise<Case> {
    for (let attempt = 1; ; attempt++) {
      const { id, reserve } = await freshCaseId(this.dataSource);
      try {
        return await this.cases.execute(
          id,
          { type: 'CreateCase', caseId: id, input: command.input },
          command.actor,
          {
            ...command.options,
            beforeAppend: async (runner) => {
              await reserve(runner);
              await claimUploads(runner, id, fileUrls(command.input.files), command.actor);
            },
          },
        );
      } catch (error) {
        if (!isIdCollision(error) || attempt >= 10) throw error;
      }
    }
  }
}

/** The urls of the files a new case names; their shape is checked by the domain's decide. */
function fileUrls(files: unknown): { url: string }[] {
  return Array.isArray(files)
    ? files.filter((file): file is { url: string } => typeof file?.url === 'string')
    : [];
}
