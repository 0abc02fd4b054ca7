import { Module } from '@nestjs/common';
import { ReportsController } from './reports.controller.js';
import { ReportsQueries } from './reports.queries.js';

/**
 * Reports for the lab manager. The read model (report_cases, report_stage_intervals) is written
 * with each command's events (CaseCommandService), by a restore (CaseImportService) and by the
 * rebuild (ReadModelReplay), all through report-rows.projection.ts.
 */
@Module({
  controllers: [ReportsController],
  providers: [ReportsQueries],
  exports: [ReportsQueries],
})
export class ReportsModule {}
