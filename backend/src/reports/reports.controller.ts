import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import {
  CASES_CSV_HEADER,
  parseReportRange,
  REPORT_TEXTS,
  toCsv,
  type Actor,
  type ReportRange,
  type ReportSummary,
  type ReportTable,
} from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessLogService } from '../access-log/access-log.service.js';
import { CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { requireCapability } from '../common/require-capability.js';
import { ReportsQueries } from './reports.queries.js';

/** The tables of the Reports screen besides the cases, each downloadable: header and rows. */
const SUMMARY_TABLES: Record<
  Exclude<ReportTable, 'cases'>,
  (summary: ReportSummary) => { header: string[]; rows: (string | number)[][] }
> = {
  stages: (summary) => ({
    header: ['status', 'cases', 'averageHours', 'p90Hours'],
    rows: summary.byStage.map((stage) => [stage.status, stage.cases, stage.averageHours, stage.p90Hours]),
  }),
  weeks: (summary) => ({
    header: ['weekStart', 'completed', 'onTime'],
    rows: summary.byWeek.map((week) => [week.weekStart, week.completed, week.onTime]),
  }),
  doctors: (summary) => ({
    header: ['doctor', 'completed', 'onTime', 'averageTurnaroundDays'],
    rows: summary.byDoctor.map((row) => [row.name, row.completed, row.onTime, row.averageTurnaroundDays]),
  }),
  clinics: (summary) => ({
    header: ['clinic', 'completed', 'onTime', 'averageTurnaroundDays'],
    rows: summary.byClinic.map((row) => [row.name, row.completed, row.onTime, row.averageTurnaroundDays]),
  }),
  remakes: (summary) => ({
    header: ['reasonCode', 'remakes'],
    rows: Object.entries(summary.remakes.byReasonCode).sort(([a], [b]) => a.localeCompare(b)),
  }),
};

/** Reports (api.md "Reach and insight"): Managers only; see README.md for what each figure counts. */
@Controller('reports')
export class ReportsController {
  constructor(
    private readonly queries: ReportsQueries,
    private readonly accessLog: AccessLogService,
  ) {}

  @Get('summary')
  summary(
    @CurrentActor() actor: Actor,
    @Query('from') from: unknown,
    @Query('to') to: unknown,
  ): Promise<ReportSummary> {
    return this.queries.summary(this.range(actor, from, to));
  }

  @Get('cases.csv')
  async casesCsv(
    @CurrentActor() actor: Actor,
    @Query('from') from: unknown,
    @Query('to') to: unknown,
    @Req() request: FastifyRequest,
    @Res() response: FastifyReply,
  ) {
    const range = this.range(actor, from, to);
    const rows = await this.queries.completedCases(range);
    this.accessLog.record(request, actor, 'export', `report cases-${range.from}-${range.to}.csv`, null);
    const csv = toCsv(
      CASES_CSV_HEADER,
      rows.map((row) => CASES_CSV_HEADER.map((column) => row[column])),
    );
    send(response, `cases-${range.from}-${range.to}.csv`, csv);
  }

  /** stages.csv, weeks.csv, doctors.csv, clinics.csv, remakes.csv: the summary's other tables. */
  @Get(':table.csv')
  async tableCsv(
    @CurrentActor() actor: Actor,
    @Param('table') table: string,
    @Query('from') from: unknown,
    @Query('to') to: unknown,
    @Req() request: FastifyRequest,
    @Res() response: FastifyReply,
  ) {
    const range = this.range(actor, from, to);
    const make = Object.hasOwn(SUMMARY_TABLES, table)
      ? SUMMARY_TABLES[table as keyof typeof SUMMARY_TABLES]
      : undefined;
    if (!make) rejectWith('not_found', `No report table "${table.slice(0, 40)}".`);
    const { header, rows } = make(await this.queries.summary(range));
    this.accessLog.record(request, actor, 'export', `report ${table}-${range.from}-${range.to}.csv`, null);
    send(response, `${table}-${range.from}-${range.to}.csv`, toCsv(header, rows));
  }

  /** Who first (403 before any look at the input), then the range (400 with the domain's text). */
  private range(actor: Actor, from: unknown, to: unknown): ReportRange {
    requireCapability(actor, 'viewReports', REPORT_TEXTS.managersOnly);
    const parsed = parseReportRange(from, to);
    if ('error' in parsed) rejectWith('invalid', parsed.error);
    return parsed.range;
  }
}

function send(response: FastifyReply, filename: string, csv: string): void {
  response
    .status(200)
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('Cache-Control', 'no-store')
    .send(csv);
}
