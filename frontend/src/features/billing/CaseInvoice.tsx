import { useEffect, useState } from 'react';
import { formatMoney, type Invoice, type Role } from '@alignerflow/domain';
import { billingApi, billingLinks } from './billingApi';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';
import { BILLING_SCREEN_TEXTS as T } from './texts';

const MAY_SEE: readonly Role[] = ['Manager', 'Representative', 'Doctor'];

/** The case detail's line about its invoice: number, status, balance, PDF. */
export function CaseInvoice({ caseId, role, status }: { caseId: string; role: Role; status: string }) {
  const [invoice, setInvoice] = useState<Invoice | null | undefined>(undefined);
  const allowed = MAY_SEE.includes(role);
  useEffect(() => {
    if (!allowed) return;
    let current = true;
    billingApi.invoices({ caseId }).then(
      (answer) => current && setInvoice(answer[0] ?? null),
      () => current && setInvoice(null),
    );
    return () => {
      current = false;
    };
    // A new status (the case shipped) may have brought its invoice.
  }, [allowed, caseId, status]);
  if (!allowed || invoice === undefined) return null;
  return (
    <div className="case-invoice" aria-label={T.caseInvoice}>
      <strong>{T.caseInvoice}:</strong>{' '}
      {invoice ? (
        <>
          <a href={billingLinks.invoicePdf(invoice.number)} download>
            {invoice.number}
          </a>{' '}
          <InvoiceStatusBadge invoice={invoice} /> {formatMoney(invoice.balance, invoice.currency)}
        </>
      ) : (
        <span className="muted">{T.notInvoiced}</span>
      )}
    </div>
  );
}
