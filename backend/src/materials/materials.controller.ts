import { Body, Controller, Get, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  DEVICE_TEXTS,
  lotKey,
  toCsv,
  type Actor,
  type Lot,
  type MaterialSettings,
  type RecallRow,
} from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessLogService } from '../access-log/access-log.service.js';
import { Caller, CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { MaterialSettingsDto, RegisterLotDto } from './materials.dto.js';
import { MaterialsStore } from '../materials-store/materials.store.js';
import { RecallQuery } from './recall.query.js';

export const RECALL_CSV_HEADER = [
  'caseId',
  'doctorUsername',
  'clinicName',
  'status',
  'stage',
  'usedAt',
] as const;

/** api.md, "Devices": the lots register, a lot's recall list and the lab's materials settings. */
@Controller('materials')
export class MaterialsController {
  constructor(
    private readonly materials: MaterialsStore,
    private readonly recall: RecallQuery,
    private readonly accessLog: AccessLogService,
  ) {}

  @Get('lots')
  async lots(@CurrentActor() actor: Actor): Promise<Lot[]> {
    this.materials.requireStaff(actor);
    return this.materials.list();
  }

  @Post('lots')
  register(@Caller() caller: Caller, @Body() body: RegisterLotDto): Promise<Lot> {
    return this.materials.registerLot({ ...body }, caller.actor, caller.correlationId);
  }

  @Get('lots/:lotNumber/cases')
  cases(@CurrentActor() actor: Actor, @Param('lotNumber') lotNumber: string): Promise<RecallRow[]> {
    return this.recallOf(actor, lotNumber);
  }

  @Get('lots/:lotNumber/cases.csv')
  async casesCsv(
    @CurrentActor() actor: Actor,
    @Param('lotNumber') lotNumber: string,
    @Req() request: FastifyRequest,
    @Res() response: FastifyReply,
  ): Promise<void> {
    const rows = await this.recallOf(actor, lotNumber);
    this.accessLog.record(request, actor, 'export', `recall ${lotNumber.slice(0, 80)}.csv`, null);
    const csv = toCsv(
      RECALL_CSV_HEADER,
      rows.map((row) => RECALL_CSV_HEADER.map((column) => row[column])),
    );
    const filename = `recall-${lotNumber.replace(/[^A-Za-z0-9._-]/g, '_')}.csv`;
    response
      .status(200)
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${filename}"`)
      .header('Cache-Control', 'no-store')
      .send(csv);
  }

  @Get('settings')
  async settings(@CurrentActor() actor: Actor): Promise<MaterialSettings> {
    this.materials.requireStaff(actor);
    return this.materials.settings();
  }

  @Put('settings')
  changeSettings(@Caller() caller: Caller, @Body() body: MaterialSettingsDto): Promise<MaterialSettings> {
    return this.materials.changeSettings({ ...body }, caller.actor, caller.correlationId);
  }

  private async recallOf(actor: Actor, lotNumber: string): Promise<RecallRow[]> {
    if (actor.role !== 'Manager') rejectWith('forbidden', DEVICE_TEXTS.recallRoles);
    const lot = (await this.materials.register()).lots.get(lotKey(lotNumber));
    if (!lot) rejectWith('not_found', DEVICE_TEXTS.unknownLot(lotNumber));
    return this.recall.casesOf(lot.lotNumber);
  }
}
