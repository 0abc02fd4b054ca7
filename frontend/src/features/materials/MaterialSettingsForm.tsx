import { useId, useState } from 'react';
import type { MaterialSettings } from '@alignerflow/domain';
import { errorMessage } from '../../api/errorMessage';
import { toast } from '../../components/toastStore';
import { materialsApi } from '../../api/materialsApi';
import { MATERIALS_TEXTS as T } from './texts';

/** The lab's settings (Managers): lots required, transit days, and the statement's manufacturer details. */
export function MaterialSettingsForm({
  settings,
  onSaved,
}: {
  settings: MaterialSettings;
  onSaved: (settings: MaterialSettings) => void;
}) {
  const id = useId();
  const [form, setForm] = useState(settings);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const text = (
    name: 'manufacturerName' | 'manufacturerAddress' | 'responsiblePerson' | 'conformityText',
  ) => ({
    id: `${id}-${name}`,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const saved = await materialsApi.saveSettings(form);
      onSaved(saved);
      setForm(saved);
      toast(T.settings, T.saved);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.settings}</h2>
      <form
        className="mt-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <label className="mt-check">
          <input
            type="checkbox"
            checked={form.requireLots}
            onChange={(event) => setForm({ ...form, requireLots: event.target.checked })}
          />
          {T.requireLots}
        </label>
        <label htmlFor={`${id}-transit`}>{T.transitDays}</label>
        <input
          id={`${id}-transit`}
          type="number"
          min={0}
          max={30}
          value={form.transitDays}
          onChange={(event) => setForm({ ...form, transitDays: Number(event.target.value) })}
        />
        <label htmlFor={`${id}-manufacturerName`}>{T.manufacturerName}</label>
        <input {...text('manufacturerName')} maxLength={200} />
        <label htmlFor={`${id}-manufacturerAddress`}>{T.manufacturerAddress}</label>
        <textarea {...text('manufacturerAddress')} rows={3} maxLength={500} />
        <label htmlFor={`${id}-responsiblePerson`}>{T.responsiblePerson}</label>
        <input {...text('responsiblePerson')} maxLength={200} />
        <label htmlFor={`${id}-conformityText`}>{T.conformityText}</label>
        <textarea {...text('conformityText')} rows={3} maxLength={2000} />
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy}>
          {T.save}
        </button>
      </form>
    </section>
  );
}
