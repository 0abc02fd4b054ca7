import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Actor, RestoreAnswer } from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessLogService } from '../access-log/access-log.service.js';
import { StepUp } from '../sessions/step-up.decorator.js';
import { CorrelationId, CurrentActor } from '../common/current-actor.js';
import { requireCapability } from '../common/require-capability.js';
import { JsonBody } from '../common/request-body.js';
import { BackupService } from './backup.service.js';

const MANAGER_ONLY = 'Only a manager can back up, restore or export the data.';

/** Backup and event log (api.md): Manager only, with a recent proof of who they are (step-up). */
@Controller()
export class BackupController {
  constructor(
    private readonly backups: BackupService,
    private readonly accessLog: AccessLogService,
  ) {}

  @Get('backup')
  @StepUp()
  async backup(@CurrentActor() actor: Actor, @Req() request: FastifyRequest, @Res() response: FastifyReply) {
    requireCapability(actor, 'backup', MANAGER_ONLY);
    const json = await this.backups.backupJson();
    this.accessLog.record(request, actor, 'export', 'backup', null);
    response
      .status(200)
      .type('application/json')
      .header('Content-Disposition', `attachment; filename="alignerflow-backup-${today()}.json"`)
      .header('Cache-Control', 'no-store')
      .send(json);
  }

  /** Body limit 200 MB (app.ts). Validated whole before anything changes. */
  @Post('restore')
  @StepUp()
  @JsonBody('A backup file, as GET /api/backup gives it; checked whole before anything changes.', {
    type: 'object',
  })
  @HttpCode(200)
  restore(
    @CurrentActor() actor: Actor,
    @CorrelationId() correlationId: string,
    @Body() body: unknown,
  ): Promise<RestoreAnswer> {
    requireCapability(actor, 'backup', MANAGER_ONLY);
    return this.backups.restore(body, actor, correlationId);
  }

  @Get('events/export')
  @StepUp()
  async exportEvents(
    @CurrentActor() actor: Actor,
    @Req() request: FastifyRequest,
    @Res() response: FastifyReply,
  ) {
    requireCapability(actor, 'backup', MANAGER_ONLY);
    this.accessLog.record(request, actor, 'export', 'events export', null);
    // Written batch by batch as the client takes them, on the raw answer.
    response.hijack();
    const raw = response.raw;
    raw.statusCode = 200;
    raw.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    raw.setHeader('Content-Disposition', `attachment; filename="alignerflow-events-${today()}.ndjson"`);
    raw.setHeader('Cache-Control', 'no-store');
    await this.backups.exportTo(raw);
  }
}

/** YYYY-MM-DD in the server's time zone. */
function today(now = new Date()): string {
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}
