import { useEffect, useRef, useState } from 'react';
import { formatMoney, taxOf, type Invoice, type Role } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { toast } from '../../components/toastStore';
import { billingLinks } from './billingApi';
import { CreditNoteDialog } from './CreditNoteDialog';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';
import { RecordPaymentDialog } from './RecordPaymentDialog';
import { BILLING_SCREEN_TEXTS as T } from './texts';
import { VoidInvoiceDialog } from './VoidInvoiceDialog';
import { Fact } from '../../components/Fact';

interface InvoicePanelProps {
  invoice: Invoice;
  role: Role;
  onChanged: (invoice: Invoice) => void;
  onClose: () => void;
}

type Open = 'payment' | 'credit' | 'void' | null;

/** One invoice: lines, totals, payments and credit notes, and what the role may do with it. */
export function InvoicePanel({ invoice, role, onChanged, onClose }: InvoicePanelProps) {
  const [open, setOpen] = useState<Open>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opening an invoice takes focus (and, on a phone, the view) to its panel below the list.
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView?.({ block: 'nearest' });
  }, [invoice.number]);
  const money = (minor: number) => formatMoney(minor, invoice.currency);
  const live = invoice.status !== 'void';
  const done = (message?: string) => (next: Invoice) => {
    setOpen(null);
    if (message) toast(message);
    onChanged(next);
  };
  return (
    <section className="panel billing-panel" aria-labelledby="invoice-panel-title">
      <div className="billing-panel__head">
        <h2 id="invoice-panel-title" ref={heading} tabIndex={-1}>
          {T.panelTitle(invoice.number)}
        </h2>
        <InvoiceStatusBadge invoice={invoice} />
        <button type="button" className="button button--ghost" onClick={onClose}>
          {T.close}
        </button>
      </div>
      <p className="muted">
        {invoice.caseId} · {invoice.patientInitials} · {invoice.doctorUsername} · {invoice.clinicName} ·{' '}
        {formatDate(invoice.issuedAt)} → {formatDate(invoice.dueAt)}
      </p>
      {invoice.voidReason ? <p className="form-error">{T.voided(invoice.voidReason)}</p> : null}

      <div className="billing-panel__actions">
        {live && invoice.balance > 0 && (role === 'Manager' || role === 'Representative') ? (
          <button type="button" className="button button--primary" onClick={() => setOpen('payment')}>
            {T.recordPayment}
          </button>
        ) : null}
        {live && invoice.balance > 0 && role === 'Manager' ? (
          <button type="button" className="button button--secondary" onClick={() => setOpen('credit')}>
            {T.creditNote}
          </button>
        ) : null}
        {live && role === 'Manager' && !invoice.payments.length && !invoice.creditNotes.length ? (
          <button type="button" className="button button--ghost" onClick={() => setOpen('void')}>
            {T.void}
          </button>
        ) : null}
        <a className="button button--ghost" href={billingLinks.invoicePdf(invoice.number)} download>
          {T.pdf}
        </a>
      </div>

      <h3>{T.lines}</h3>
      <div className="table-wrap">
        <table className="table table--compact" aria-label={T.lines}>
          <thead>
            <tr>
              <th scope="col">{T.columns.description}</th>
              <th scope="col" className="num">
                {T.columns.quantity}
              </th>
              <th scope="col" className="num">
                {T.columns.unitAmount}
              </th>
              <th scope="col" className="num">
                {T.columns.taxRate}
              </th>
              <th scope="col" className="num">
                {T.columns.amount}
              </th>
            </tr>
          </thead>
          <tbody>
            {invoice.lines.map((line, index) => (
              <tr key={index}>
                <td>{line.description}</td>
                <td className="num">{line.quantity}</td>
                <td className="num">{money(line.unitAmount)}</td>
                <td className="num">
                  {line.taxRate}% ({money(taxOf(line.amount, line.taxRate))})
                </td>
                <td className="num">{money(line.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="billing-totals">
        {(
          [
            [T.subtotal, invoice.subtotal],
            [T.tax, invoice.tax],
            [T.total, invoice.total],
            [T.paid, invoice.paid],
            [T.credited, invoice.credited],
            [T.balance, invoice.balance],
          ] as const
        ).map(([label, value]) => (
          <Fact
            key={label}
            term={label}
            value={money(value)}
            valueTestId={`invoice-${label.toLowerCase()}`}
          />
        ))}
      </dl>

      <h3>{T.payments}</h3>
      {invoice.payments.length === 0 ? (
        <p className="muted">{T.noPayments}</p>
      ) : (
        <ul className="billing-list">
          {invoice.payments.map((payment) => (
            <li key={payment.id}>
              {formatDate(payment.receivedAt)} · {money(payment.amount)} · {T.methodLabels[payment.method]}
              {payment.reference ? ` · ${payment.reference}` : ''} · {payment.recordedBy}
            </li>
          ))}
        </ul>
      )}
      <h3>{T.creditNotes}</h3>
      {invoice.creditNotes.length === 0 ? (
        <p className="muted">{T.noCredits}</p>
      ) : (
        <ul className="billing-list">
          {invoice.creditNotes.map((note) => (
            <li key={note.number}>
              {note.number} · {formatDate(note.issuedAt)} · {money(note.amount)} · {note.reason}
            </li>
          ))}
        </ul>
      )}

      {open === 'payment' ? (
        <RecordPaymentDialog
          invoice={invoice}
          onClose={() => setOpen(null)}
          onDone={done(T.paymentRecorded)}
        />
      ) : null}
      {open === 'credit' ? (
        <CreditNoteDialog invoice={invoice} onClose={() => setOpen(null)} onDone={done()} />
      ) : null}
      {open === 'void' ? (
        <VoidInvoiceDialog invoice={invoice} onClose={() => setOpen(null)} onDone={done(T.invoiceVoided)} />
      ) : null}
    </section>
  );
}
