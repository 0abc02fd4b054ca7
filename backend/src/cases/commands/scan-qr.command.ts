import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CASE_TEXTS, parseQrPayload, type Actor, type ScanAnswer } from '@alignerflow/domain';
import { rejectWith } from '../../common/domain-rejection.js';
import { CaseCommandService, type CommandOptions } from '../case-command.service.js';
import { CasesQueries } from '../cases.queries.js';

export class ScanQrCommand {
  constructor(
    readonly payload: unknown,
    readonly actor: Actor,
    readonly options: CommandOptions,
  ) {}
}

/** A case QR opens its case; a stage QR starts that aligner stage and completes the one before. */
@CommandHandler(ScanQrCommand)
export class ScanQrHandler implements ICommandHandler<ScanQrCommand, ScanAnswer> {
  constructor(
    private readonly cases: CaseCommandService,
    private readonly queries: CasesQueries,
  ) {}

  async execute(command: ScanQrCommand): Promise<ScanAnswer> {
    const scanned = parseQrPayload(command.payload);
    if (!scanned) return rejectWith('not_found', CASE_TEXTS.invalidQr);
    if (scanned.kind === 'case') {
      const found = await this.queries.findVisible(command.actor, scanned.caseId);
      return found ? { kind: 'case', case: found } : rejectWith('not_found', CASE_TEXTS.invalidQr);
    }
    const before = await this.queries.findVisible(command.actor, scanned.caseId);
    if (!before) return rejectWith('not_found', CASE_TEXTS.invalidQr);
    const updated = await this.cases.execute(
      scanned.caseId,
      { type: 'ScanAlignerStage', stageNumber: scanned.stage },
      command.actor,
      command.options,
    );
    const previous = before.staging.find((entry) => entry.stageNumber === scanned.stage - 1);
    const completedPrevious = previous && previous.status !== 'Completed' ? previous.stageNumber : null;
    return { kind: 'stage', case: updated, started: scanned.stage, completed: completedPrevious };
  }
}
