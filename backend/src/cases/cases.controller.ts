import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CASE_TEXTS,
  LIMIT_TEXTS,
  USER_LIMITS,
  parseInteger,
  parseStatus,
  type Actor,
  type Case,
  type CaseHistoryEntry,
  type CaseQrAnswer,
  type DashboardFigures,
  type ScanAnswer,
} from '@alignerflow/domain';
import type { Request, Response } from 'express';
import { AccessLogService } from '../access-log/access-log.service.js';
import { Caller, CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { sendWithEtag } from '../common/etag.js';
import { LimitReached } from '../common/limit-reached.js';
import { AttemptLimiter } from '../security/attempt-limiter.js';
import { requireCapability } from '../common/require-capability.js';
import { JsonBody } from '../common/request-body.js';
import type { CommandOptions } from './case-command.service.js';
import { CasesQueries } from './cases.queries.js';
import {
  AddFilesDto,
  AddNoteDto,
  AdvanceStageDto,
  ApproveCaseDto,
  AssigneeDto,
  ConcurrencyDto,
  CreateCaseDto,
  PricingDto,
  RejectCaseDto,
  RemoveFileDto,
  ReorderDto,
  RequestChangesDto,
  ScanDto,
  SimulationLinksDto,
} from './cases.dto.js';
import { AddNoteCommand } from './commands/add-note.command.js';
import { AdvanceStageCommand } from './commands/advance-stage.command.js';
import { ApproveCaseCommand } from './commands/approve-case.command.js';
import { ApproveTreatmentPlanCommand } from './commands/approve-treatment-plan.command.js';
import {
  CompleteAlignerStageCommand,
  ReopenAlignerStageCommand,
  ResetAlignerStageCommand,
  StartAlignerStageCommand,
} from './commands/aligner-stage.commands.js';
import { AddFilesCommand, RemoveFileCommand } from './commands/case-files.commands.js';
import { CreateCaseCommand } from './commands/create-case.command.js';
import { OrderFollowUpCommand } from './commands/order-follow-up.command.js';
import { DeleteCaseCommand } from './commands/delete-case.command.js';
import { EditCaseCommand } from './commands/edit-case.command.js';
import { GenerateCaseQrCommand } from './commands/generate-case-qr.command.js';
import { HoldCaseCommand } from './commands/hold-case.command.js';
import { ReassignStageCommand } from './commands/reassign-stage.command.js';
import { RejectCaseCommand } from './commands/reject-case.command.js';
import { RequestChangesCommand } from './commands/request-changes.command.js';
import { ResumeCaseCommand } from './commands/resume-case.command.js';
import { SaveSimulationLinksCommand } from './commands/save-simulation-links.command.js';
import { ScanQrCommand } from './commands/scan-qr.command.js';
import { UpdatePricingCommand } from './commands/update-pricing.command.js';

/** A command's options: the request's correlation id and the version the caller saw, if any. */
function options({ correlationId }: Caller, body?: ConcurrencyDto): CommandOptions {
  return { correlationId, expectedVersion: body?.expectedVersion };
}

function isVersion(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

const HOUR_MS = 3_600_000;

const STAGING_COMMANDS = {
  start: StartAlignerStageCommand,
  complete: CompleteAlignerStageCommand,
  reopen: ReopenAlignerStageCommand,
  reset: ResetAlignerStageCommand,
} as const;

@Controller()
export class CasesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queries: CasesQueries,
    private readonly accessLog: AccessLogService,
    private readonly limiter: AttemptLimiter,
  ) {}

  @Get('cases')
  async list(@CurrentActor() actor: Actor, @Req() request: Request, @Res() response: Response) {
    const { tag, body } = await this.queries.listVersion(actor);
    await sendWithEtag(request, response, tag, body);
  }

  @Get('cases/:id')
  async get(@CurrentActor() actor: Actor, @Param('id') id: string, @Req() request: Request): Promise<Case> {
    const found = (await this.queries.findVisible(actor, id)) ?? rejectWith('not_found', CASE_TEXTS.notFound);
    this.accessLog.record(request, actor, 'view', 'case', found.id);
    return found;
  }

  @Get('cases/:id/history')
  async history(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Req() request: Request,
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
      return await this.run(new CreateCaseCommand(body, caller.actor, options(caller)));
    } catch (error) {
      await this.limiter.release(key);
      throw error;
    }
  }

  /** Edit Case: the full case may be sent back; only the edit fields may differ. */
  @Put('cases/:id')
  @JsonBody('The fields to change (those of POST /api/cases), and optionally expectedVersion.', {
    type: 'object',
  })
  edit(
    @Caller() caller: Caller,
    @Param('id') id: string,
    @Body() body: Record<string, unknown>,
  ): Promise<Case> {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      rejectWith('invalid', 'The body must be a JSON object.');
    // As for every other command: a mistyped version is refused, never silently ignored.
    const { expectedVersion } = body;
    if (expectedVersion !== undefined && expectedVersion !== null && !isVersion(expectedVersion)) {
      rejectWith('invalid', 'expectedVersion must be a whole number from 0.');
    }
    const version = isVersion(expectedVersion) ? expectedVersion : undefined;
    return this.run(
      new EditCaseCommand(id, caller.actor, options(caller, { expectedVersion: version }), { fields: body }),
    );
  }

  @Delete('cases/:id')
  @HttpCode(204)
  async remove(@Caller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.run(new DeleteCaseCommand(id, caller.actor, options(caller)));
  }

  @Post('cases/:id/approve')
  @HttpCode(200)
  approve(@Caller() caller: Caller, @Param('id') id: string, @Body() body: ApproveCaseDto): Promise<Case> {
    return this.run(
      new ApproveCaseCommand(id, caller.actor, options(caller, body), {
        doctorUsername: body.doctorUsername,
      }),
    );
  }

  @Post('cases/:id/reject')
  @HttpCode(200)
  reject(@Caller() caller: Caller, @Param('id') id: string, @Body() body: RejectCaseDto): Promise<Case> {
    return this.run(new RejectCaseCommand(id, caller.actor, options(caller, body), { reason: body.reason }));
  }

  @Post('cases/:id/advance')
  @HttpCode(200)
  advance(@Caller() caller: Caller, @Param('id') id: string, @Body() body: AdvanceStageDto): Promise<Case> {
    return this.run(
      new AdvanceStageCommand(id, caller.actor, options(caller, body), {
        fromStatus: body.fromStatus,
        lots: body.lots,
        machine: body.machine,
      }),
    );
  }

  @Post('cases/:id/doctor-approve')
  @HttpCode(200)
  approveTreatmentPlan(
    @Caller() caller: Caller,
    @Param('id') id: string,
    @Body() body: ConcurrencyDto,
  ): Promise<Case> {
    return this.run(new ApproveTreatmentPlanCommand(id, caller.actor, options(caller, body)));
  }

  @Post('cases/:id/request-changes')
  @HttpCode(200)
  requestChanges(
    @Caller() caller: Caller,
    @Param('id') id: string,
    @Body() body: RequestChangesDto,
  ): Promise<Case> {
    return this.run(
      new RequestChangesCommand(id, caller.actor, options(caller, body), { comment: body.comment }),
    );
  }

  @Post('cases/:id/hold')
  @HttpCode(200)
  hold(@Caller() caller: Caller, @Param('id') id: string, @Body() body: ConcurrencyDto): Promise<Case> {
    return this.run(new HoldCaseCommand(id, caller.actor, options(caller, body)));
  }

  @Post('cases/:id/resume')
  @HttpCode(200)
  resume(@Caller() caller: Caller, @Param('id') id: string, @Body() body: ConcurrencyDto): Promise<Case> {
    return this.run(new ResumeCaseCommand(id, caller.actor, options(caller, body)));
  }

  @Post('cases/:id/notes')
  addNote(@Caller() caller: Caller, @Param('id') id: string, @Body() body: AddNoteDto): Promise<Case> {
    return this.run(new AddNoteCommand(id, caller.actor, options(caller, body), { text: body.text }));
  }

  @Put('cases/:id/pricing')
  pricing(@Caller() caller: Caller, @Param('id') id: string, @Body() body: PricingDto): Promise<Case> {
    const { price, upperSheets, lowerSheets } = body;
    return this.run(
      new UpdatePricingCommand(id, caller.actor, options(caller, body), { price, upperSheets, lowerSheets }),
    );
  }

  @Put('cases/:id/simulation')
  simulation(
    @Caller() caller: Caller,
    @Param('id') id: string,
    @Body() body: SimulationLinksDto,
  ): Promise<Case> {
    const links = {
      simulationVideoUrl: body.simulationVideoUrl,
      simulationExternalLink: body.simulationExternalLink,
    };
    return this.run(new SaveSimulationLinksCommand(id, caller.actor, options(caller, body), links));
  }

  @Put('cases/:id/stages/:status/assignee')
  reassign(
    @Caller() caller: Caller,
    @Param('id') id: string,
    @Param('status') status: string,
    @Body() body: AssigneeDto,
  ): Promise<Case> {
    const stage = parseStatus(status) ?? status;
    return this.run(
      new ReassignStageCommand(id, caller.actor, options(caller, body), { stage, assignee: body.assignee }),
    );
  }

  @Post('cases/:id/qr')
  @HttpCode(200)
  qr(@Caller() caller: Caller, @Param('id') id: string, @Body() body: ConcurrencyDto): Promise<CaseQrAnswer> {
    return this.run<CaseQrAnswer>(new GenerateCaseQrCommand(id, caller.actor, options(caller, body)));
  }

  @Post('cases/:id/staging/:n/:action')
  @HttpCode(200)
  staging(
    @Caller() caller: Caller,
    @Param('id') id: string,
    @Param('n') n: string,
    @Param('action') action: string,
    @Body() body: ConcurrencyDto,
  ): Promise<Case> {
    if (!Object.hasOwn(STAGING_COMMANDS, action))
      rejectWith('not_found', `Unknown staging action "${action}".`);
    const stageNumber = parseInteger(n);
    if (stageNumber === undefined || stageNumber < 1)
      rejectWith('invalid', 'Stage must be a whole number from 1.');
    const Command = STAGING_COMMANDS[action as keyof typeof STAGING_COMMANDS];
    return this.run(new Command(id, caller.actor, options(caller, body), { stageNumber }));
  }

  @Post('cases/:id/files')
  @HttpCode(200)
  addFiles(@Caller() caller: Caller, @Param('id') id: string, @Body() body: AddFilesDto): Promise<Case> {
    return this.run(new AddFilesCommand(id, caller.actor, options(caller, body), { files: body.files }));
  }

  @Post('cases/:id/files/remove')
  @HttpCode(200)
  removeFile(@Caller() caller: Caller, @Param('id') id: string, @Body() body: RemoveFileDto): Promise<Case> {
    return this.run(
      new RemoveFileCommand(id, caller.actor, options(caller, body), { url: body.url, reason: body.reason }),
    );
  }

  /** A remake or refinement of a completed case: 201 with the new case. */
  @Post('cases/:id/reorders')
  reorder(@Caller() caller: Caller, @Param('id') id: string, @Body() body: ReorderDto): Promise<Case> {
    const { kind, reasonCode, reason } = body;
    return this.run(
      new OrderFollowUpCommand(id, caller.actor, options(caller, body), { kind, reasonCode, reason }),
    );
  }

  @Post('scan')
  @HttpCode(200)
  scan(@Caller() caller: Caller, @Body() body: ScanDto): Promise<ScanAnswer> {
    return this.run<ScanAnswer>(new ScanQrCommand(body.payload, caller.actor, options(caller)));
  }

  private run<T = Case>(command: object): Promise<T> {
    return this.commandBus.execute(command as never) as Promise<T>;
  }
}
