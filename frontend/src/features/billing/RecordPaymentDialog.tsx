import { useId, useState } from 'react';
import { PAYMENT_METHODS, toMajorText, type Invoice, type PaymentMethod } from '@alignerflow/domain';
import { isoDay } from '../../components/format';
import { AmountField, minorUnitsOf } from './AmountField';
import { billingApi } from './billingApi';
import { MoneyCommandDialog } from './MoneyCommandDialog';
import { BILLING_SCREEN_TEXTS as T } from './texts';

interface Props {
  invoice: Invoice;
  onClose: () => void;
  onDone: (invoice: Invoice) => void;
}

/** Record payment (Manager, Representative): amount (the balance offered), method, reference, date. */
export function RecordPaymentDialog({ invoice, onClose, onDone }: Props) {
  const ids = { method: useId(), reference: useId(), date: useId() };
  const [amount, setAmount] = useState(toMajorText(invoice.balance));
  const [method, setMethod] = useState<PaymentMethod>('bank');
  const [reference, setReference] = useState('');
  const [receivedAt, setReceivedAt] = useState(isoDay(new Date()));
  // NaN would leave the JSON as null: the server's own amount rule answers either way.
  const minor = minorUnitsOf(amount);
  return (
    <MoneyCommandDialog
      title={`${T.recordPayment}: ${invoice.number}`}
      submitLabel={T.recordPayment}
      onClose={onClose}
      onSubmit={async () =>
        onDone(
          await billingApi.recordPayment(invoice.number, {
            amount: Number.isNaN(minor) ? 0 : minor,
            method,
            reference,
            receivedAt,
          }),
        )
      }
    >
      <AmountField
        label={T.amount}
        value={amount}
        onChange={setAmount}
        currency={invoice.currency}
        autoFocus
      />
      <div className="field">
        <label className="field__label" htmlFor={ids.method}>
          {T.method}
        </label>
        <select
          id={ids.method}
          value={method}
          onChange={(event) => setMethod(event.target.value as PaymentMethod)}
        >
          {PAYMENT_METHODS.map((value) => (
            <option key={value} value={value}>
              {T.methodLabels[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.reference}>
          {T.reference}
        </label>
        <input
          id={ids.reference}
          value={reference}
          maxLength={200}
          onChange={(event) => setReference(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.date}>
          {T.receivedAt}
        </label>
        <input
          id={ids.date}
          type="date"
          value={receivedAt}
          onChange={(event) => setReceivedAt(event.target.value)}
        />
      </div>
    </MoneyCommandDialog>
  );
}
