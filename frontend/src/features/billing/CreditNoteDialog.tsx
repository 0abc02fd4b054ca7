import { useId, useState } from 'react';
import type { Invoice } from '@alignerflow/domain';
import { toast } from '../../components/toastStore';
import { AmountField, minorUnitsOf } from './AmountField';
import { billingApi } from './billingApi';
import { MoneyCommandDialog } from './MoneyCommandDialog';
import { BILLING_SCREEN_TEXTS as T } from './texts';

interface Props {
  invoice: Invoice;
  onClose: () => void;
  onDone: (invoice: Invoice) => void;
}

/** Credit note (Manager): an amount up to the balance and a reason; the server gives it a CN number. */
export function CreditNoteDialog({ invoice, onClose, onDone }: Props) {
  const reasonId = useId();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  return (
    <MoneyCommandDialog
      title={`${T.creditNote}: ${invoice.number}`}
      submitLabel={T.creditNote}
      onClose={onClose}
      onSubmit={async () => {
        const minor = minorUnitsOf(amount);
        const answer = await billingApi.creditNote(invoice.number, {
          amount: Number.isNaN(minor) ? 0 : minor,
          reason,
        });
        toast(T.creditIssued(answer.number));
        onDone(answer.invoice);
      }}
    >
      <AmountField
        label={T.amount}
        value={amount}
        onChange={setAmount}
        currency={invoice.currency}
        autoFocus
      />
      <div className="field">
        <label className="field__label" htmlFor={reasonId}>
          {T.reason}
        </label>
        <textarea
          id={reasonId}
          value={reason}
          maxLength={500}
          rows={3}
          onChange={(event) => setReason(event.target.value)}
        />
      </div>
    </MoneyCommandDialog>
  );
}
