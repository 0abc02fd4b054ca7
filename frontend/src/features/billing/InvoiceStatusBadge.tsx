import type { InvoiceStatus } from '@alignerflow/domain';
import { BILLING_SCREEN_TEXTS as T } from './texts';

/** Open, Paid or Void, in words and colour. */
export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return <span className={`invoice-status invoice-status--${status}`}>{T.statusLabels[status]}</span>;
}
