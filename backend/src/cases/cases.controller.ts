import { Body, Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CASE_TEXTS,
  LIMIT_TEXTS,
  USER_LIMITS,
  type Actor,
  type Case,
  type CaseHistoryEntry,
  type DashboardFigures,
} from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessLogService } from '../access-log/access-log.service.js';
import { Caller, CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { sendWithEtag } from '../common/etag.js';
import { LimitReached } from '../common/limit-reached.js';
import { AttemptLimiter } from '../security/attempt-limiter.js';
import { requireCapability } from '../common/require-capability.js';
import { CasesQueries } from './cases.queries.js';
import { CreateCaseDto } from './cases.dto.js';
import { CaseCommandService, type CommandOptions } from './case-command.service.js';
import { CaseCommandRoutes } from './commands/case-command-routes.js';
import { COMMAND_COUNTS, type CommandCounts } from './commands/command-counts.js';
import { CreateCaseCommand } from './commands/create-case.command.js';

const HOUR_MS = 3_600_000;

/**
 * The case routes: the reads here, POST /cases (which counts against the caller's limit first),
 * and every other case command from the route table (commands/case-command-table.ts), mounted
 * after these by CaseCommandRoutes.
 */
@Controller()
export class CasesController extends CaseCommandRoutes {
  constructor(
    commandBus: CommandBus,
    commands: CaseCommandService,
    @Inject(COMMAND_COUNTS) counts: CommandCounts,
    private readonly queries: CasesQueries,
    private readonly accessLog: AccessLogService,
    private readonly limiter: AttemptLimiter,
  ) {
    super(commandBus, commands, counts);
  }

  @Get('cases')
  async list(@CurrentActor() actor: Actor, @Req() request: FastifyRequest, @Res() response: FastifyReply) {
    const { tag, body } = await this.queries.listVersion(actor);
    await sendWithEtag(request, response, tag, body);
  }

  @Get('cases/:id')
  async get(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<Case> {
    const found = (await this.queries.findVisible(actor, id)) ?? rejectWith('not_found', CASE_TEXTS.notFound);
    this.accessLog.record(request, actor, 'view', 'case', found.id);
    return found;
  }

  @Get('cases/:id/history')
  async history(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<CaseHistoryEntry[]> {
    if (!(await this.queries.isVisible(actor, id))) rejectWith('not_found', CASE_TEXTS.notFound);
    const history = await this.queries.history(id);
    this.accessLog.record(request, actor, 'view', 'history', id);
    return history;
  }

  @Get('dashboard')
  dashboard(@CurrentActor() actor: Actor): Promise<DashboardFigures> {
    requireCapability(actor, 'viewDashboard', 'The Lab Dashboard is for lab staff.');
    return this.queries.dashboard();
  }

  @Post('cases')
  async create(@Caller() caller: Caller, @Body() body: CreateCaseDto): Promise<Case> {
    // Counted before the command and given back when it fails: only cases made count.
    const key = `new-cases:${caller.actor.username.toLowerCase()}`;
    const verdict = await this.limiter.consume(key, USER_LIMITS.casesPerHour, HOUR_MS);
    if (!verdict.allowed) throw new LimitReached(LIMIT_TEXTS.cases, verdict.retryAfterSeconds);
    try {
      const options: CommandOptions = { correlationId: caller.correlationId };
      return await this.commandBus.execute<CreateCaseCommand, Case>(
        new CreateCaseCommand(body, caller.actor, options),
      );
    } catch (error) {
      await this.limiter.release(key);
      throw error;
    }
  }
}
