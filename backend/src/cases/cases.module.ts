import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { MaterialsStoreModule } from '../materials-store/materials-store.module.js';
import { CaseAccessLogController } from './case-access-log.controller.js';
import { CaseCommandService } from './case-command.service.js';
import { CasesController } from './cases.controller.js';
import { CasesQueries } from './cases.queries.js';
import { AddNoteHandler } from './commands/add-note.command.js';
import { AdvanceStageHandler } from './commands/advance-stage.command.js';
import { ApproveCaseHandler } from './commands/approve-case.command.js';
import { ApproveTreatmentPlanHandler } from './commands/approve-treatment-plan.command.js';
import {
  CompleteAlignerStageHandler,
  ReopenAlignerStageHandler,
  ResetAlignerStageHandler,
  StartAlignerStageHandler,
} from './commands/aligner-stage.commands.js';
import { AddFilesHandler, RemoveFileHandler } from './commands/case-files.commands.js';
import { CreateCaseHandler } from './commands/create-case.command.js';
import { OrderFollowUpHandler } from './commands/order-follow-up.command.js';
import { DeleteCaseHandler } from './commands/delete-case.command.js';
import { EditCaseHandler } from './commands/edit-case.command.js';
import { GenerateCaseQrHandler } from './commands/generate-case-qr.command.js';
import { HoldCaseHandler } from './commands/hold-case.command.js';
import { ReassignStageHandler } from './commands/reassign-stage.command.js';
import { RejectCaseHandler } from './commands/reject-case.command.js';
import { RequestChangesHandler } from './commands/request-changes.command.js';
import { ResumeCaseHandler } from './commands/resume-case.command.js';
import { SaveSimulationLinksHandler } from './commands/save-simulation-links.command.js';
import { ScanQrHandler } from './commands/scan-qr.command.js';
import { UpdatePricingHandler } from './commands/update-pricing.command.js';
import { CaseViewProjection } from './projections/case-view.projection.js';

export const CASE_COMMAND_HANDLERS = [
  CreateCaseHandler,
  EditCaseHandler,
  DeleteCaseHandler,
  ApproveCaseHandler,
  RejectCaseHandler,
  AdvanceStageHandler,
  ApproveTreatmentPlanHandler,
  RequestChangesHandler,
  HoldCaseHandler,
  ResumeCaseHandler,
  AddNoteHandler,
  UpdatePricingHandler,
  SaveSimulationLinksHandler,
  ReassignStageHandler,
  GenerateCaseQrHandler,
  StartAlignerStageHandler,
  CompleteAlignerStageHandler,
  ReopenAlignerStageHandler,
  ResetAlignerStageHandler,
  ScanQrHandler,
  AddFilesHandler,
  RemoveFileHandler,
  OrderFollowUpHandler,
];

@Module({
  imports: [UsersModule, MaterialsStoreModule],
  controllers: [CasesController, CaseAccessLogController],
  providers: [CaseCommandService, CaseViewProjection, CasesQueries, ...CASE_COMMAND_HANDLERS],
  exports: [CaseCommandService, CaseViewProjection, CasesQueries],
})
export class CasesModule {}
