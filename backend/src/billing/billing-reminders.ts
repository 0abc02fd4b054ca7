import { Injectable } from '@nestjs/common';
import { reminderDue, SYSTEM_ACTOR } from '@alignerflow/domain';
import { DomainRejection } from '../common/domain-rejection.js';
import { BillingClock } from './billing-clock.js';
import { BillingStore } from './billing-store.js';
import { InvoiceCommandService } from './invoice-command.service.js';

/**
 * Seven days past an invoice's due date with a balance left, its doctor gets one reminder: the
 * event InvoiceReminderSent on the invoice stream, which the notification dispatcher turns into
 * push and email (libs/domain billing/reminder-alert.ts). The decider refuses a second one, so
 * a scan repeated, overlapping or in another process never reminds twice. Runs with the at-risk
 * scan (notifications/at-risk), under its lock, as of the time given to that scan, else of
 * billing's clock.
 */
@Injectable()
export class BillingReminders {
  constructor(
    private readonly billing: BillingStore,
    private readonly commands: InvoiceCommandService,
    private readonly clock: BillingClock,
  ) {}

  /** The numbers of the invoices reminded as of `now` (by default billing's clock). */
  async scan(now: Date = this.clock.now()): Promise<string[]> {
    const due = (await this.billing.open()).filter((invoice) => reminderDue(invoice, now));
    const reminded: string[] = [];
    for (const invoice of due) {
      try {
        await this.commands.onStream(
          invoice.caseId,
          SYSTEM_ACTOR,
          { actor: SYSTEM_ACTOR, correlationId: `invoice-reminder-${invoice.number}` },
          async () => ({ type: 'SendReminder', at: now.toISOString() }),
        );
        reminded.push(invoice.number);
      } catch (error) {
        // Paid or reminded meanwhile: the domain said no.
        if (!(error instanceof DomainRejection)) throw error;
      }
    }
    return reminded;
  }
}
