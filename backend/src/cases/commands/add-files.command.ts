import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { checkAddedFiles, type Case } from '@alignerflow/domain';
import { CaseCommandService } from '../case-command.service.js';
import { claimUploadsForCase } from './upload-claims.js';
import { CaseCommandBase } from './case-command.base.js';

export class AddFilesCommand extends CaseCommandBase<{ files: unknown }> {}

/** The files' uploads are claimed for the case in the transaction that appends FilesAdded. */
@CommandHandler(AddFilesCommand)
export class AddFilesHandler implements ICommandHandler<AddFilesCommand, Case> {
  constructor(private readonly cases: CaseCommandService) {}

  execute({ caseId, actor, options, input }: AddFilesCommand): Promise<Case> {
    return this.cases.execute(caseId, { type: 'AddFiles', files: input.files }, actor, {
      ...options,
      beforeAppend: async (runner) => {
        // decide has accepted the files by now: their shape is checked.
        const checked = checkAddedFiles(input.files);
        await claimUploadsForCase(runner, caseId, 'value' in checked ? checked.value : [], actor);
      },
    });
  }
}
