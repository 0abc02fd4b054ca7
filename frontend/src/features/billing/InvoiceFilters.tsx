import { INVOICE_STATUSES } from '@alignerflow/domain';
import type { InvoiceQuery } from './billingApi';
import { BILLING_SCREEN_TEXTS as T } from './texts';

interface InvoiceFiltersProps {
  filter: InvoiceQuery;
  doctors: string[];
  onChange: (filter: InvoiceQuery) => void;
}

/** Doctor, status and issue dates. */
export function InvoiceFilters({ filter, doctors, onChange }: InvoiceFiltersProps) {
  return (
    <form
      className="panel billing-filters"
      aria-label={T.filters}
      onSubmit={(event) => event.preventDefault()}
    >
      <label className="field">
        <span className="field__label">{T.doctor}</span>
        <select
          value={filter.doctor ?? ''}
          onChange={(event) => onChange({ ...filter, doctor: event.target.value })}
        >
          <option value="">{T.anyDoctor}</option>
          {doctors.map((doctor) => (
            <option key={doctor} value={doctor}>
              {doctor}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">{T.status}</span>
        <select
          value={filter.status ?? ''}
          onChange={(event) => onChange({ ...filter, status: event.target.value })}
        >
          <option value="">{T.anyStatus}</option>
          {INVOICE_STATUSES.map((status) => (
            <option key={status} value={status}>
              {T.statusLabels[status]}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">{T.from}</span>
        <input
          type="date"
          value={filter.from ?? ''}
          onChange={(event) => onChange({ ...filter, from: event.target.value })}
        />
      </label>
      <label className="field">
        <span className="field__label">{T.to}</span>
        <input
          type="date"
          value={filter.to ?? ''}
          onChange={(event) => onChange({ ...filter, to: event.target.value })}
        />
      </label>
    </form>
  );
}
