import { useId, useState } from 'react';
import { LOT_KINDS, type LotKind } from '@alignerflow/domain';
import { errorMessage } from '../../api/errorMessage';
import { toast } from '../../components/toastStore';
import { materialsApi } from '../../api/materialsApi';
import { MATERIALS_TEXTS as T } from './texts';

const EMPTY = { kind: 'sheet' as LotKind, product: '', lotNumber: '', supplier: '', expiresOn: '' };

/** 'Register lot' (Managers and Technicians): the server checks and answers with its texts. */
export function LotForm({ onRegistered }: { onRegistered: () => void }) {
  const [form, setForm] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const field = (name: keyof typeof EMPTY) => ({
    id: `${id}-${name}`,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const lot = await materialsApi.register({
        ...form,
        supplier: form.supplier || null,
        expiresOn: form.expiresOn || null,
      });
      toast(T.registerLot, T.registered(lot.lotNumber));
      setForm(EMPTY);
      onRegistered();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.registerLot}</h2>
      <form
        className="mt-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label htmlFor={`${id}-kind`}>{T.kind}</label>
        <select {...field('kind')}>
          {LOT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {T.kinds[kind]}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-product`}>{T.product}</label>
        <input {...field('product')} required maxLength={200} />
        <label htmlFor={`${id}-lotNumber`}>{T.lotNumber}</label>
        <input {...field('lotNumber')} required maxLength={64} autoComplete="off" />
        <label htmlFor={`${id}-supplier`}>{T.supplier}</label>
        <input {...field('supplier')} maxLength={200} />
        <label htmlFor={`${id}-expiresOn`}>{T.expiresOn}</label>
        <input {...field('expiresOn')} type="date" />
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy}>
          {T.registerLot}
        </button>
      </form>
    </section>
  );
}
