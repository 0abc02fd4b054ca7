import { useId, useState } from 'react';
import type { Invoice } from '@alignerflow/domain';
import { billingApi } from './billingApi';
import { MoneyCommandDialog } from './MoneyCommandDialog';
import { BILLING_SCREEN_TEXTS as T } from './texts';

interface Props {
  invoice: Invoice;
  onClose: () => void;
  onDone: (invoice: Invoice) => void;
}

/** Void (Manager): only an invoice without payments or credits; the server says so otherwise. */
export function VoidInvoiceDialog({ invoice, onClose, onDone }: Props) {
  const reasonId = useId();
  const [reason, setReason] = useState('');
  return (
    <MoneyCommandDialog
      title={`${T.voidConfirm}: ${invoice.number}`}
      submitLabel={T.voidConfirm}
      danger
      onClose={onClose}
      onSubmit={async () => onDone(await billingApi.voidInvoice(invoice.number, { reason }))}
    >
      <p className="muted">{T.voidHint}</p>
      <div className="field">
        <label className="field__label" htmlFor={reasonId}>
          {T.reason}
        </label>
        <textarea
          id={reasonId}
          data-autofocus
          value={reason}
          maxLength={500}
          rows={3}
          onChange={(event) => setReason(event.target.value)}
        />
      </div>
    </MoneyCommandDialog>
  );
}
