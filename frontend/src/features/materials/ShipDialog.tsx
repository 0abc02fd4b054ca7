import { useId, useState } from 'react';
import { CARRIER_NAMES, CARRIERS, type Carrier } from '@alignerflow/domain';
import { Dialog } from '../../components/Dialog';
import { ActionError } from '../case-shared/ActionError';
import { MATERIALS_TEXTS as T } from './texts';

interface ShipDialogProps {
  busy: boolean;
  error: string | undefined;
  onSubmit: (input: { carrier: Carrier; trackingNumber: string; shippedAt?: string }) => void;
  onClose: () => void;
}

/** 'Ship case': the carrier and tracking number (and the day, when it left earlier than now). */
export function ShipDialog({ busy, error, onSubmit, onClose }: ShipDialogProps) {
  const [carrier, setCarrier] = useState<Carrier>('ups');
  const [trackingNumber, setTrackingNumber] = useState('');
  const [shippedOn, setShippedOn] = useState('');
  const ids = { carrier: useId(), number: useId(), day: useId(), form: useId() };
  return (
    <Dialog
      title={T.shipTitle}
      onClose={onClose}
      size="small"
      footer={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {T.cancel}
          </button>
          <button type="submit" form={ids.form} className="button button--primary" disabled={busy}>
            {T.recordShipment}
          </button>
        </>
      }
    >
      <form
        id={ids.form}
        className="mt-form"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit({
            carrier,
            trackingNumber,
            ...(shippedOn ? { shippedAt: new Date(`${shippedOn}T12:00:00`).toISOString() } : {}),
          });
        }}
      >
        <label htmlFor={ids.carrier}>{T.carrier}</label>
        <select
          id={ids.carrier}
          value={carrier}
          onChange={(event) => setCarrier(event.target.value as Carrier)}
          data-autofocus
        >
          {CARRIERS.map((option) => (
            <option key={option} value={option}>
              {CARRIER_NAMES[option]}
            </option>
          ))}
        </select>
        <label htmlFor={ids.number}>{T.trackingNumber}</label>
        <input
          id={ids.number}
          value={trackingNumber}
          maxLength={64}
          required
          autoComplete="off"
          onChange={(event) => setTrackingNumber(event.target.value)}
        />
        <label htmlFor={ids.day}>{T.shippedAt}</label>
        <input
          id={ids.day}
          type="date"
          value={shippedOn}
          onChange={(event) => setShippedOn(event.target.value)}
        />
        <ActionError message={error} />
      </form>
    </Dialog>
  );
}
