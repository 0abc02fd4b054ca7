import { BILLING_SCREEN_TEXTS as T } from './texts';
import type { InvoicesLoad } from './useInvoices';

/** The invoices list's error (announced) or loading line; nothing once loaded. */
export function InvoicesLoadStatus({ load }: { load: InvoicesLoad }) {
  if (load.state === 'error')
    return (
      <p className="form-error" role="alert">
        {load.message}
      </p>
    );
  if (load.state === 'loading')
    return (
      <p className="muted" role="status">
        {T.loading}
      </p>
    );
  return null;
}
