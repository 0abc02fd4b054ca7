import { Module } from '@nestjs/common';
import { BillingBackup } from './billing-backup.js';
import { BillingClock } from './billing-clock.js';
import { BillingReminders } from './billing-reminders.js';
import { BillingController, DoctorBillingController } from './billing.controller.js';
import { BillingStore } from './billing-store.js';
import { InvoiceCommandService } from './invoice-command.service.js';
import { InvoiceIssuer } from './invoice-issuer.js';
import { InvoicesController } from './invoices.controller.js';

/**
 * Billing (api.md "Billing"; README "Billing"): invoice streams beside the cases, issued by a
 * checkpointed follower of the log, read from invoice_view.
 */
@Module({
  controllers: [InvoicesController, BillingController, DoctorBillingController],
  providers: [
    BillingBackup,
    BillingClock,
    BillingReminders,
    BillingStore,
    InvoiceCommandService,
    InvoiceIssuer,
  ],
  exports: [
    BillingBackup,
    BillingClock,
    BillingReminders,
    BillingStore,
    InvoiceCommandService,
    InvoiceIssuer,
  ],
})
export class BillingModule {}
