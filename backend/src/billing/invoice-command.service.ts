import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  BILLING_TEXTS,
  decideInvoice,
  evolveInvoice,
  foldInvoice,
  invoiceStreamId,
  invoiceVisibleTo,
  mayReadInvoices,
  type Actor,
  type Invoice,
  type InvoiceCommand,
} from '@alignerflow/domain';
import { DataSource, type QueryRunner } from 'typeorm';
import { DomainRejection, rejectWith } from '../common/domain-rejection.js';
import { EVENTS_COMMITTED, type EventsCommitted } from '../event-store/log-listener.js';
import { EventStore, lockStream, withTransaction, type EventMetadata } from '../event-store/event-store.js';
import { BillingStore, toInvoiceEvent } from './billing-store.js';

/**
 * The one path of an invoice command: in one transaction, queue behind the stream's other
 * writers, fold it, let the caller draw any number it needs, decide, append, write invoice_view.
 * A rejection rolls everything back, a drawn number included.
 */
@Injectable()
export class InvoiceCommandService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly billing: BillingStore,
    private readonly emitter: EventEmitter2,
  ) {}

  /** The invoice `number` as `actor` may see it: 403 for a role without invoices, 404 for another's. */
  async visible(number: string, actor: Actor): Promise<Invoice> {
    if (!mayReadInvoices(actor.role)) rejectWith('forbidden', BILLING_TEXTS.notAllowed);
    const invoice = await this.billing.byNumber(number);
    if (!invoice || !invoiceVisibleTo(invoice, actor)) rejectWith('not_found', BILLING_TEXTS.notFound);
    return invoice;
  }

  async execute(
    number: string,
    actor: Actor,
    metadata: EventMetadata,
    command: (runner: QueryRunner) => Promise<InvoiceCommand>,
  ): Promise<Invoice> {
    const { caseId } = await this.visible(number, actor);
    return this.onStream(caseId, actor, metadata, command);
  }

  /** The invoice of a stream as its events leave it, and the stream's version. */
  async stateOf(streamId: string, runner: QueryRunner): Promise<{ state: Invoice | null; version: number }> {
    const past = await this.store.readStream(streamId, runner);
    return { state: foldInvoice(past.map(toInvoiceEvent)), version: past.length };
  }

  /** The command on the invoice stream of `caseId` (the issuer, the reminder scan and restore use this too). */
  async onStream(
    caseId: string,
    actor: Actor,
    metadata: EventMetadata,
    command: (runner: QueryRunner) => Promise<InvoiceCommand>,
  ): Promise<Invoice> {
    const streamId = invoiceStreamId(caseId);
    const { invoice, recorded } = await withTransaction(this.dataSource, async (runner) => {
      await lockStream(runner, streamId);
      const past = await this.store.readStream(streamId, runner);
      const state = foldInvoice(past.map(toInvoiceEvent));
      const decision = decideInvoice(await command(runner), state, actor);
      if (!decision.ok) throw new DomainRejection(decision.rejection);
      const recorded = await this.store.append(streamId, past.length, decision.events, metadata, runner);
      const next = decision.events.reduce<Invoice | null>(evolveInvoice, state) as Invoice;
      await this.billing.writeView(runner, next, past.length + recorded.length);
      return { invoice: next, recorded };
    });
    this.emitter.emit(EVENTS_COMMITTED, { events: recorded } satisfies EventsCommitted);
    return invoice;
  }
}
