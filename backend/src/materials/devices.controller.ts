import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CommandBus } from '@nestjs/cqrs';
import {
  CASE_TEXTS,
  DEVICE_TEXTS,
  deviceRecord,
  hasPassedQualityCheck,
  localDay,
  statementItems,
  type Actor,
  type Case,
  type DeviceRecord,
} from '@alignerflow/domain';
import { AccessLogService } from '../access-log/access-log.service.js';
import { statementPdf } from './statement.pdf.js';
import { Caller, CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { CasesQueries } from '../cases/cases.queries.js';
import { ConcurrencyDto } from '../cases/cases.dto.js';
import { MarkReceivedCommand, RecordShipmentCommand } from './commands/shipment.commands.js';
import { ShipmentDto } from './materials.dto.js';
import { MaterialsStore } from '../materials-store/materials.store.js';

/** api.md, "Devices": a case's device record, its shipments and their receipt. */
@Controller('cases')
export class DevicesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queries: CasesQueries,
    private readonly materials: MaterialsStore,
    private readonly accessLog: AccessLogService,
  ) {}

  @Get(':id/device-record')
  async record(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<DeviceRecord> {
    const found = await this.visibleCase(actor, id);
    return deviceRecord(found, await this.materials.settings());
  }

  /** The custom-made device statement, once the case has passed Quality Check; `?paper=letter` for US Letter. */
  @Get(':id/statement.pdf')
  async statement(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Query('paper') paper: string | undefined,
    @Req() request: FastifyRequest,
    @Res() response: FastifyReply,
  ): Promise<void> {
    const found = await this.visibleCase(actor, id);
    if (!hasPassedQualityCheck(found)) rejectWith('conflict', DEVICE_TEXTS.statementNotYet);
    const settings = await this.materials.settings();
    const items = statementItems(deviceRecord(found, settings), settings, localDay(new Date()));
    const pdf = await statementPdf(items, paper?.toLowerCase() === 'letter' ? 'LETTER' : 'A4', found.id);
    this.accessLog.record(request, actor, 'print', 'statement.pdf', found.id);
    response
      .status(200)
      .type('application/pdf')
      .header('Content-Disposition', `inline; filename="statement-${found.id}.pdf"`)
      .header('Cache-Control', 'no-store')
      .send(pdf);
  }

  @Post(':id/shipments')
  @HttpCode(200)
  ship(@Caller() caller: Caller, @Param('id') id: string, @Body() body: ShipmentDto): Promise<Case> {
    const { carrier, trackingNumber, shippedAt } = body;
    return this.commandBus.execute(
      new RecordShipmentCommand(id, caller.actor, commandOptions(caller, body), {
        carrier,
        trackingNumber,
        shippedAt,
      }),
    );
  }

  @Post(':id/received')
  @HttpCode(200)
  received(@Caller() caller: Caller, @Param('id') id: string, @Body() body: ConcurrencyDto): Promise<Case> {
    return this.commandBus.execute(new MarkReceivedCommand(id, caller.actor, commandOptions(caller, body)));
  }

  /** The whole case if the caller may see it (staff, the case's doctor); else 404. */
  async visibleCase(actor: Actor, id: string): Promise<Case> {
    return (await this.queries.findVisible(actor, id)) ?? rejectWith('not_found', CASE_TEXTS.notFound);
  }
}

function commandOptions({ correlationId }: Caller, body?: ConcurrencyDto) {
  return { correlationId, expectedVersion: body?.expectedVersion };
}
