import { Body, Controller, Get, Param, Put, Query, Req, Res } from '@nestjs/common';
import {
  agingTotals,
  BILLING_SETTINGS_STREAM,
  BILLING_TEXTS,
  checkBillingSettings,
  checkDoctorBillingDetails,
  doctorBillingStreamId,
  EXPORT_FORMATS,
  invoicesCsv,
  isDay,
  isMonth,
  statementOf,
  USER_TEXTS,
  type Actor,
  type AgingReport,
  type BillingSettings,
  type DoctorBillingDetails,
  type ExportFormat,
  type Statement,
} from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessLogService } from '../access-log/access-log.service.js';
import { DataSource } from 'typeorm';
import { Caller } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { EventStore, type EventMetadata } from '../event-store/event-store.js';
import { parsePageSize, sendPdf } from '../pdf/one-page-pdf.js';
import { BillingClock } from './billing-clock.js';
import { statementPdf } from './billing-pdf.js';
import { BillingStore } from './billing-store.js';
import { BillingSettingsDto, DoctorBillingDto } from './billing.dto.js';

function managerOnly(actor: Actor): void {
  if (actor.role !== 'Manager') rejectWith('forbidden', BILLING_TEXTS.managersOnly);
}

/** api.md "Billing": the lab's settings, statements, aging and the accountant's export. */
@Controller('billing')
export class BillingController {
  constructor(
    private readonly billing: BillingStore,
    private readonly store: EventStore,
    private readonly clock: BillingClock,
    private readonly accessLog: AccessLogService,
  ) {}

  @Get('settings')
  async settings(@Caller() { actor }: Caller): Promise<BillingSettings> {
    if (actor.role === 'Doctor') rejectWith('forbidden', BILLING_TEXTS.notAllowed);
    const { version: _version, ...settings } = await this.billing.settings();
    return settings;
  }

  @Put('settings')
  async saveSettings(
    @Caller() { actor, correlationId }: Caller,
    @Body() body: BillingSettingsDto,
  ): Promise<BillingSettings> {
    managerOnly(actor);
    const checked = checkBillingSettings(body);
    if ('error' in checked) rejectWith('invalid', checked.error);
    const { version } = await this.billing.settings();
    await appendLatest(
      this.store,
      BILLING_SETTINGS_STREAM,
      version,
      'BillingSettingsChanged',
      checked.value,
      {
        actor,
        correlationId,
      },
    );
    return checked.value;
  }

  /** Before 'statements/:doctor', which would take "dr.lee.pdf" as a doctor. */
  @Get('statements/:doctor.pdf')
  async statementPdf(
    @Caller() { actor }: Caller,
    @Param('doctor') doctor: string,
    @Query('month') month: unknown,
    @Query('size') size: unknown,
    @Req() request: FastifyRequest,
    @Res() response: FastifyReply,
  ): Promise<void> {
    const statement = await this.statementOf(actor, doctor, month);
    const { details } = await this.billing.doctorDetails(doctor);
    const [latest] = await this.billing.list({ doctorKey: doctor.toLowerCase() });
    const clinicName = details?.clinicName || latest?.clinicName || '';
    const bytes = await statementPdf(
      statement,
      await this.billing.settings(),
      clinicName,
      details,
      parsePageSize(size),
    );
    const filename = `statement-${statement.doctor}-${statement.month}.pdf`;
    // A doctor's month across cases: printed, like an export, with no one case.
    this.accessLog.record(request, actor, 'print', filename, null);
    sendPdf(response, filename, bytes);
  }

  @Get('statements/:doctor')
  async statement(
    @Caller() { actor }: Caller,
    @Param('doctor') doctor: string,
    @Query('month') month: unknown,
  ): Promise<Statement> {
    return this.statementOf(actor, doctor, month);
  }

  @Get('aging')
  async aging(@Caller() { actor }: Caller): Promise<AgingReport> {
    managerOnly(actor);
    return agingTotals(await this.billing.aging(this.clock.now()));
  }

  @Get('export.csv')
  async export(
    @Caller() { actor }: Caller,
    @Query('from') from: unknown,
    @Query('to') to: unknown,
    @Query('format') format: unknown,
    @Req() request: FastifyRequest,
    @Res() response: FastifyReply,
  ): Promise<void> {
    managerOnly(actor);
    if (!EXPORT_FORMATS.includes(format as ExportFormat)) rejectWith('invalid', BILLING_TEXTS.formatInvalid);
    for (const day of [from, to])
      if (day !== undefined && !isDay(day)) rejectWith('invalid', BILLING_TEXTS.dateInvalid);
    const invoices = await this.billing.list({
      from: from as string | undefined,
      to: to as string | undefined,
    });
    // The accountant's tools import oldest first.
    const csv = invoicesCsv(invoices.reverse(), format as ExportFormat);
    const range = `${(from as string | undefined) ?? 'start'} to ${(to as string | undefined) ?? 'today'}`;
    this.accessLog.record(
      request,
      actor,
      'export',
      `billing invoices-${format as string}.csv, ${range}`,
      null,
    );
    response
      .status(200)
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="invoices-${format as string}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(csv);
  }

  /** Managers, Representatives and the doctor; another doctor's (or no such doctor's) → 404. */
  async statementOf(actor: Actor, doctor: string, month: unknown): Promise<Statement> {
    if (actor.role !== 'Manager' && actor.role !== 'Representative' && actor.role !== 'Doctor')
      rejectWith('forbidden', BILLING_TEXTS.notAllowed);
    if (actor.role === 'Doctor' && actor.username.toLowerCase() !== doctor.toLowerCase())
      rejectWith('not_found', BILLING_TEXTS.statementNotFound);
    if (!isMonth(month)) rejectWith('invalid', BILLING_TEXTS.monthInvalid);
    const invoices = await this.billing.list({ doctorKey: doctor.toLowerCase() });
    const { currency } = await this.billing.settings();
    return statementOf(
      invoices,
      invoices[0]?.doctorUsername ?? doctor,
      month,
      invoices[0]?.currency ?? currency,
    );
  }
}

/** A doctor's billing details (api.md): Manager, Representative, or the doctor. */
@Controller('users/:username/billing')
export class DoctorBillingController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly billing: BillingStore,
    private readonly store: EventStore,
  ) {}

  @Get()
  async get(@Caller() { actor }: Caller, @Param('username') username: string): Promise<DoctorBillingDetails> {
    await this.allowed(actor, username);
    const { details } = await this.billing.doctorDetails(username);
    return details ?? { clinicName: '', address: '', taxId: '', email: '', taxRate: null };
  }

  @Put()
  async put(
    @Caller() { actor, correlationId }: Caller,
    @Param('username') username: string,
    @Body() body: DoctorBillingDto,
  ): Promise<DoctorBillingDetails> {
    await this.allowed(actor, username);
    const checked = checkDoctorBillingDetails(body);
    if ('error' in checked) rejectWith('invalid', checked.error);
    const { version } = await this.billing.doctorDetails(username);
    await appendLatest(
      this.store,
      doctorBillingStreamId(username),
      version,
      'DoctorBillingDetailsChanged',
      checked.value,
      {
        actor,
        correlationId,
      },
    );
    return checked.value;
  }

  private async allowed(actor: Actor, username: string): Promise<void> {
    const self = actor.role === 'Doctor' && actor.username.toLowerCase() === username.toLowerCase();
    if (!self && actor.role !== 'Manager' && actor.role !== 'Representative')
      rejectWith('forbidden', BILLING_TEXTS.notAllowed);
    const [user]: { role: string }[] = await this.dataSource.query(
      'SELECT role FROM user_view WHERE username_key = $1 AND NOT deleted',
      [username.toLowerCase()],
    );
    if (!user || user.role !== 'Doctor') rejectWith('not_found', USER_TEXTS.notFound);
  }
}

/** Settings are last-writer-wins: a concurrent save makes this one append after it. */
async function appendLatest(
  store: EventStore,
  streamId: string,
  version: number,
  type: string,
  data: unknown,
  metadata: EventMetadata,
): Promise<void> {
  try {
    await store.append(streamId, version, [{ type, data }], metadata);
  } catch {
    const events = await store.readStream(streamId);
    await store.append(streamId, events.length, [{ type, data }], metadata);
  }
}
