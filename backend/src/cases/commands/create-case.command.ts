import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  caseIdSuffixRange,
  formatCaseId,
  pickCaseIdSuffix,
  type Actor,
  type Case,
  type NewCaseInput,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { CaseCommandService, type CommandOptions } from '../case-command.service.js';
import { claimUploads } from '../../files/upload-claims.js';
import { DomainRejection } from '../../common/domain-rejection.js';

export class CreateCaseCommand {
  constructor(
    readonly input: NewCaseInput,
    readonly actor: Actor,
    readonly options: CommandOptions,
  ) {}
}

const UNIQUE_VIOLATION = '23505';

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
      const year = new Date().getFullYear();
      const suffix = await this.freeSuffix(year);
      const id = formatCaseId(year, suffix);
      try {
        return await this.cases.execute(
          id,
          { type: 'CreateCase', caseId: id, input: command.input },
          command.actor,
          {
            ...command.options,
            beforeAppend: async (runner) => {
              await runner.query('INSERT INTO case_ids (id, year, suffix) VALUES ($1, $2, $3)', [
                id,
                year,
                suffix,
              ]);
              await claimUploads(runner, id, fileUrls(command.input.files), command.actor);
            },
          },
        );
      } catch (error) {
        if (!isIdCollision(error) || attempt >= 10) throw error;
      }
    }
  }

  private async freeSuffix(year: number): Promise<number> {
    const rows: { suffix: number }[] = await this.dataSource.query(
      'SELECT suffix FROM case_ids WHERE year = $1',
      [year],
    );
    const taken = new Set(rows.map((row) => row.suffix));
    for (let count = taken.size; ;) {
      const range = caseIdSuffixRange(count);
      const suffix = pickCaseIdSuffix(range, taken);
      if (suffix !== undefined) return suffix;
      // The range is full (ids reserved by an import, say): move on to the next width.
      count = range.max - 100 + 1;
    }
  }
}

/** The urls of the files a new case names; their shape is checked by the domain's decide. */
function fileUrls(files: unknown): { url: string }[] {
  return Array.isArray(files)
    ? files.filter((file): file is { url: string } => typeof file?.url === 'string')
    : [];
}

/**
 * Another creation took the id first: either its reservation is still uncommitted (the unique
 * key on case_ids) or it is committed and the stream exists (the domain's conflict). Ids are the
 * server's choice, so either way the answer is to pick another.
 */
function isIdCollision(error: unknown): boolean {
  if (error instanceof DomainRejection) return error.getStatus() === 409;
  return (error as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION;
}
