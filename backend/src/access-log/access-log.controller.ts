import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import {
  ACCESS_LOG_CSV_HEADER,
  ACCESS_LOG_TEXTS,
  parseAccessLogFilter,
  toCsv,
  type AccessEntry,
  type AccessLogFilter,
  type Actor,
} from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { requireCapability } from '../common/require-capability.js';
import { AccessLogService } from './access-log.service.js';

/**
 * api.md, "Patient data": the access log, for Managers. One case's log is served by the cases
 * (cases/case-access-log.controller.ts), which know who may see the case.
 */
@Controller()
export class AccessLogController {
  constructor(private readonly log: AccessLogService) {}

  @Get('access-log')
  async search(
    @CurrentActor() actor: Actor,
    @Query() query: Record<string, unknown>,
  ): Promise<AccessEntry[]> {
    const filter = this.filter(actor, query);
    await this.log.flush();
    return this.log.search(filter);
  }

  /** The same as CSV, formula-safe (the reports' toCsv); itself an export, so it is logged too. */
  @Get('access-log.csv')
  async csv(
    @CurrentActor() actor: Actor,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() response: FastifyReply,
  ): Promise<void> {
    const filter = this.filter(actor, query);
    await this.log.flush();
    const rows = await this.log.search(filter);
    this.log.record(request, actor, 'export', 'access-log.csv', null);
    response
      .status(200)
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="access-log.csv"')
      .send(
        toCsv(
          ACCESS_LOG_CSV_HEADER,
          rows.map((row) => ACCESS_LOG_CSV_HEADER.map((column) => row[column])),
        ),
      );
  }

  /** Who first (403 before any look at the input), then the filters (400 with the domain's text). */
  private filter(actor: Actor, query: Record<string, unknown>): AccessLogFilter {
    requireCapability(actor, 'viewAccessLog', ACCESS_LOG_TEXTS.managersOnly);
    const parsed = parseAccessLogFilter(query);
    if ('error' in parsed) rejectWith('invalid', parsed.error);
    return parsed.filter;
  }
}
