import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { MaterialsStoreModule } from '../materials-store/materials-store.module.js';
import { CaseAccessLogController } from './case-access-log.controller.js';
import { CaseCommandService } from './case-command.service.js';
import { CasesController } from './cases.controller.js';
import { CasesQueries } from './cases.queries.js';
import { AddFilesHandler } from './commands/add-files.command.js';
import { AdvanceStageHandler } from './commands/advance-stage.command.js';
import { ApproveCaseHandler } from './commands/approve-case.command.js';
import { CreateCaseHandler } from './commands/create-case.command.js';
import { OrderFollowUpHandler } from './commands/order-follow-up.command.js';
import { ReassignStageHandler } from './commands/reassign-stage.command.js';
import { ScanQrHandler } from './commands/scan-qr.command.js';
import { CaseViewProjection } from './projections/case-view.projection.js';

/**
 * The handlers of the case commands that look something up before the domain decides. Every other
 * case command is an entry of the route table (commands/case-command-table.ts), with no handler.
 */
export const CASE_COMMAND_HANDLERS = [
  CreateCaseHandler,
  ApproveCaseHandler,
  AdvanceStageHandler,
  ReassignStageHandler,
  ScanQrHandler,
  AddFilesHandler,
  OrderFollowUpHandler,
];

@Module({
  imports: [UsersModule, MaterialsStoreModule],
  controllers: [CasesController, CaseAccessLogController],
  providers: [CaseCommandService, CaseViewProjection, CasesQueries, ...CASE_COMMAND_HANDLERS],
  exports: [CaseCommandService, CaseViewProjection, CasesQueries],
})
export class CasesModule {}
