import { formatMoney, type Invoice } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { billingLinks } from './billingApi';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';
import { BILLING_SCREEN_TEXTS as T } from './texts';

interface InvoicesTableProps {
  invoices: Invoice[];
  /** Staff open an invoice's panel; a Doctor gets its PDF instead. */
  onOpen?: (invoice: Invoice) => void;
  showDoctor: boolean;
  /** Beside an open invoice panel: without the case and clinic columns, which the panel shows. */
  compact?: boolean;
}

/** Invoices newest first: a table on wide screens, the same rows as cards on narrow ones (CSS). */
export function InvoicesTable({ invoices, onOpen, showDoctor, compact = false }: InvoicesTableProps) {
  if (invoices.length === 0) return <p className="muted">{T.none}</p>;
  return (
    <div className="table-wrap">
      <table className="table billing-table" aria-label={T.invoices}>
        <thead>
          <tr>
            <th scope="col">{T.columns.number}</th>
            {compact ? null : <th scope="col">{T.columns.case}</th>}
            {showDoctor ? <th scope="col">{T.columns.doctor}</th> : null}
            {compact ? null : <th scope="col">{T.columns.clinic}</th>}
            <th scope="col">{T.columns.issued}</th>
            <th scope="col">{T.columns.due}</th>
            <th scope="col" className="num">
              {T.columns.total}
            </th>
            <th scope="col" className="num">
              {T.columns.balance}
            </th>
            <th scope="col">{T.columns.status}</th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <tr key={invoice.number}>
              <td data-label={T.columns.number}>
                {onOpen ? (
                  <button
                    type="button"
                    className="link-button"
                    aria-label={T.open(invoice.number)}
                    onClick={() => onOpen(invoice)}
                  >
                    {invoice.number}
                  </button>
                ) : (
                  <a
                    href={billingLinks.invoicePdf(invoice.number)}
                    aria-label={T.downloadPdf(invoice.number)}
                    download
                  >
                    {invoice.number} ({T.pdf})
                  </a>
                )}
              </td>
              {compact ? null : <td data-label={T.columns.case}>{invoice.caseId}</td>}
              {showDoctor ? <td data-label={T.columns.doctor}>{invoice.doctorUsername}</td> : null}
              {compact ? null : <td data-label={T.columns.clinic}>{invoice.clinicName}</td>}
              <td data-label={T.columns.issued}>{formatDate(invoice.issuedAt)}</td>
              <td data-label={T.columns.due}>{formatDate(invoice.dueAt)}</td>
              <td data-label={T.columns.total} className="num">
                {formatMoney(invoice.total, invoice.currency)}
              </td>
              <td data-label={T.columns.balance} className="num">
                {formatMoney(invoice.balance, invoice.currency)}
              </td>
              <td data-label={T.columns.status}>
                <InvoiceStatusBadge invoice={invoice} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
