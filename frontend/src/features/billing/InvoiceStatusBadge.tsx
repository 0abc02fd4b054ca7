import { daysPastDue, type Invoice } from '@alignerflow/domain';
import { BILLING_SCREEN_TEXTS as T } from './texts';

/** Open, Paid or Void, in words and colour; an open invoice past its due date says Overdue. */
export function InvoiceStatusBadge({
  invoice,
  now = new Date(),
}: {
  invoice: Pick<Invoice, 'status' | 'dueAt'>;
  now?: Date;
}) {
  const overdue = invoice.status === 'open' && daysPastDue(invoice.dueAt, now) > 0;
  return (
    <span className={`invoice-status invoice-status--${overdue ? 'overdue' : invoice.status}`}>
      {overdue ? T.overdue : T.statusLabels[invoice.status]}
    </span>
  );
}
