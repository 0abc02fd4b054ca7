import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  BILLING_TEXTS,
  CREDIT_NOTE_PREFIX,
  INVOICE_STATUSES,
  isDay,
  mayReadInvoices,
  numberYear,
  type CreditNoteAnswer,
  type Invoice,
  type InvoiceStatus,
} from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessLogService } from '../access-log/access-log.service.js';
import { randomUUID } from 'node:crypto';
import { Caller } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { sendWithEtag } from '../common/etag.js';
import { parsePageSize, sendPdf } from '../pdf/one-page-pdf.js';
import { invoicePdf } from './billing-pdf.js';
import { BillingStore } from './billing-store.js';
import { CreditNoteDto, RecordPaymentDto, VoidInvoiceDto } from './billing.dto.js';
import { InvoiceCommandService } from './invoice-command.service.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A date the user gave (YYYY-MM-DD or a full timestamp), as an ISO timestamp; undefined: not a date. */
export function parseDay(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}(T.*)?$/.test(value)) return undefined;
  if (!isDay(value.slice(0, 10))) return undefined;
  const at = new Date(DAY.test(value) ? `${value}T12:00:00.000Z` : value);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** api.md "Billing": invoices, their payments, credit notes and voids. */
@Controller('invoices')
export class InvoicesController {
  constructor(
    private readonly billing: BillingStore,
    private readonly commands: InvoiceCommandService,
    private readonly accessLog: AccessLogService,
  ) {}

  @Get()
  async list(
    @Caller() { actor }: Caller,
    @Query('doctor') doctor?: unknown,
    @Query('status') status?: unknown,
    @Query('from') from?: unknown,
    @Query('to') to?: unknown,
    @Query('caseId') caseId?: unknown,
    @Req() request?: FastifyRequest,
    @Res() response?: FastifyReply,
  ): Promise<void> {
    if (!mayReadInvoices(actor.role)) rejectWith('forbidden', BILLING_TEXTS.notAllowed);
    if (status !== undefined && status !== '' && !INVOICE_STATUSES.includes(status as InvoiceStatus))
      rejectWith('invalid', 'The status must be open, paid or void.');
    for (const day of [from, to])
      if (day !== undefined && day !== '' && !isDay(day)) rejectWith('invalid', BILLING_TEXTS.dateInvalid);
    const own = actor.role === 'Doctor' ? actor.username.toLowerCase() : undefined;
    const asked = typeof doctor === 'string' && doctor ? doctor.toLowerCase() : undefined;
    // Another doctor's invoices are none of a doctor's: an empty list, whatever is stored.
    const { tag, body } = await this.billing.listVersion({
      doctorKey: own && asked && asked !== own ? '' : (own ?? asked),
      status: (status || undefined) as InvoiceStatus | undefined,
      from: (from || undefined) as string | undefined,
      to: (to || undefined) as string | undefined,
      caseId: typeof caseId === 'string' && caseId ? caseId : undefined,
    });
    await sendWithEtag(request!, response!, tag, body);
  }

  /** Before ':number', which would take "INV-2026-00001.pdf" as a number. */
  @Get(':number.pdf')
  async pdf(
    @Caller() { actor }: Caller,
    @Param('number') number: string,
    @Query('size') size: unknown,
    @Req() request: FastifyRequest,
    @Res() response: FastifyReply,
  ): Promise<void> {
    const invoice = await this.commands.visible(number, actor);
    const { details } = await this.billing.doctorDetails(invoice.doctorUsername);
    const bytes = await invoicePdf(invoice, await this.billing.settings(), details, parsePageSize(size));
    this.accessLog.record(request, actor, 'print', `invoice ${invoice.number}.pdf`, invoice.caseId ?? null);
    sendPdf(response, `${invoice.number}.pdf`, bytes);
  }

  @Get(':number')
  one(@Caller() { actor }: Caller, @Param('number') number: string): Promise<Invoice> {
    return this.commands.visible(number, actor);
  }

  @Post(':number/payments')
  @HttpCode(200)
  payment(
    @Caller() { actor, correlationId }: Caller,
    @Param('number') number: string,
    @Body() body: RecordPaymentDto,
  ): Promise<Invoice> {
    const receivedAt = body.receivedAt === undefined ? new Date().toISOString() : parseDay(body.receivedAt);
    if (!receivedAt) rejectWith('invalid', BILLING_TEXTS.dateInvalid);
    return this.commands.execute(number, actor, { actor, correlationId }, async () => ({
      type: 'RecordPayment',
      id: randomUUID(),
      amount: body.amount,
      method: body.method,
      reference: body.reference,
      receivedAt,
    }));
  }

  @Post(':number/credit-notes')
  @HttpCode(201)
  async creditNote(
    @Caller() { actor, correlationId }: Caller,
    @Param('number') number: string,
    @Body() body: CreditNoteDto,
  ): Promise<CreditNoteAnswer> {
    const issuedAt = new Date().toISOString();
    let drawn = '';
    const invoice = await this.commands.execute(number, actor, { actor, correlationId }, async (runner) => {
      drawn = await this.billing.nextNumber(runner, CREDIT_NOTE_PREFIX, numberYear(issuedAt));
      return { type: 'IssueCreditNote', number: drawn, amount: body.amount, reason: body.reason, issuedAt };
    });
    const note = invoice.creditNotes.find((item) => item.number === drawn)!;
    return { ...note, invoice };
  }

  @Post(':number/void')
  @HttpCode(200)
  void(
    @Caller() { actor, correlationId }: Caller,
    @Param('number') number: string,
    @Body() body: VoidInvoiceDto,
  ): Promise<Invoice> {
    return this.commands.execute(number, actor, { actor, correlationId }, async () => ({
      type: 'VoidInvoice',
      reason: body.reason,
      at: new Date().toISOString(),
    }));
  }
}
