import { useEffect, useId, useState, type FormEvent } from 'react';
import { CASE_ERASURE as T, isRetentionYears } from '@alignerflow/domain';
import { errorMessage } from '../../api/errorMessage';
import { toast } from '../../components/toastStore';
import { erasureApi } from '../../api/erasureApi';

/** Settings › Backup & Restore › Data retention (Managers): after how many years cases are erased. */
export function RetentionSettings() {
  const id = useId();
  const [years, setYears] = useState('');
  const [loaded, setLoaded] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    erasureApi.retention().then(
      ({ eraseAfterYears }) => {
        if (!current) return;
        setYears(eraseAfterYears === null ? '' : String(eraseAfterYears));
        setLoaded(true);
      },
      (error: unknown) => current && setProblem(errorMessage(error)),
    );
    return () => {
      current = false;
    };
  }, []);

  async function save(event: FormEvent) {
    event.preventDefault();
    const value = years.trim() === '' ? null : Number(years);
    // The server's own check, so a mistake is named before anything is sent.
    if (!isRetentionYears(value)) return setProblem(T.retentionRange);
    setProblem(null);
    setBusy(true);
    try {
      await erasureApi.saveRetention(value);
      toast(T.retentionSaved);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card form retention-settings" onSubmit={save} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>{T.retentionTitle}</h3>
      <p className="muted small">{T.retentionExplain}</p>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-years`}>
          {T.retentionLabel}
        </label>
        <input
          id={`${id}-years`}
          type="number"
          inputMode="numeric"
          min={1}
          max={30}
          placeholder={T.retentionNever}
          value={years}
          disabled={!loaded}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => setYears(event.target.value)}
        />
      </div>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="button-row">
        <button type="submit" className="button button--primary" disabled={busy || !loaded}>
          {T.save}
        </button>
      </div>
    </form>
  );
}
