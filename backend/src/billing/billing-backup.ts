import { Injectable } from '@nestjs/common';
import {
  BILLING_SETTINGS_STREAM,
  checkBackupBilling,
  invoiceStreamId,
  sameInvoice,
  type Actor,
  type BackupBilling,
} from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { DomainRejection } from '../common/domain-rejection.js';
import { EventStore, lockStream, type EventMetadata } from '../event-store/event-store.js';
import { BillingStore } from './billing-store.js';
import { InvoiceCommandService } from './invoice-command.service.js';

/**
 * Billing in backups: GET /backup carries every invoice whole and the lab's settings; a restore
 * brings them back in its own transaction as InvoiceImported events (numbers kept, counters moved
 * past them) and writes invoice_view as a replay would.
 */
@Injectable()
export class BillingBackup {
  constructor(
    private readonly store: EventStore,
    private readonly billing: BillingStore,
    private readonly commands: InvoiceCommandService,
  ) {}

  /** The `billing` member of the backup JSON, read in the caller's snapshot. */
  async json(runner: QueryRunner): Promise<string> {
    const [{ invoices }] = await runner.query(
      `SELECT coalesce(json_agg(data ORDER BY issued_at, number), '[]')::text AS invoices FROM invoice_view`,
    );
    const { version: _version, ...settings } = await this.billing.settings(runner);
    return `{"invoices":${invoices},"settings":${JSON.stringify(settings)}}`;
  }

  /** Checked before anything is written, so a bad file is a 400 and changes nothing. */
  check(body: unknown): BackupBilling {
    const checked = checkBackupBilling(body);
    if ('error' in checked) throw new DomainRejection({ kind: 'invalid', message: checked.error });
    return checked.value;
  }

  async restore(
    runner: QueryRunner,
    billing: BackupBilling,
    actor: Actor,
    metadata: EventMetadata,
  ): Promise<void> {
    for (const invoice of billing.invoices) {
      const streamId = invoiceStreamId(invoice.caseId);
      await lockStream(runner, streamId);
      const current = await this.commands.stateOf(streamId, runner);
      // The same invoice already here (a restore of this very lab): nothing to import.
      if (current.state && sameInvoice(current.state, invoice)) continue;
      await this.store.append(
        streamId,
        current.version,
        [{ type: 'InvoiceImported', data: { invoice } }],
        metadata,
        runner,
      );
      await this.billing.writeView(runner, invoice, current.version + 1);
    }
    await this.billing.raiseCounters(
      runner,
      billing.invoices.flatMap((invoice) => [
        invoice.number,
        ...invoice.creditNotes.map((note) => note.number),
      ]),
    );
    if (billing.settings) {
      const { version, ...settings } = await this.billing.settings(runner);
      if (JSON.stringify(settings) !== JSON.stringify(billing.settings))
        await this.store.append(
          BILLING_SETTINGS_STREAM,
          version,
          [{ type: 'BillingSettingsChanged', data: billing.settings }],
          { ...metadata, actor },
          runner,
        );
    }
  }
}
