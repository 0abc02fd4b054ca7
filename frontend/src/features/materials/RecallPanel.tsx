import { useId, useState } from 'react';
import type { RecallRow } from '@alignerflow/domain';
import { errorMessage } from '../../api/errorMessage';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { materialsApi, recallCsvUrl } from '../../api/materialsApi';
import { MATERIALS_TEXTS as T } from './texts';

/** 'Recall' (Managers): every case a lot went into, and its CSV. */
export function RecallPanel() {
  const id = useId();
  const [lotNumber, setLotNumber] = useState('');
  const [result, setResult] = useState<{ lotNumber: string; rows: RecallRow[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const search = async () => {
    const wanted = lotNumber.trim();
    if (!wanted) return;
    setError(null);
    try {
      setResult({ lotNumber: wanted, rows: await materialsApi.recall(wanted) });
    } catch (failure) {
      setResult(null);
      setError(errorMessage(failure));
    }
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.recall}</h2>
      <p className="hint">{T.recallHint}</p>
      <form
        className="mt-picker__row"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <label htmlFor={`${id}-lot`} className="visually-hidden">
          {T.lotNumber}
        </label>
        <input
          id={`${id}-lot`}
          value={lotNumber}
          placeholder={T.lotNumber}
          onChange={(event) => setLotNumber(event.target.value)}
        />
        <button type="submit" className="button button--secondary">
          <Icon name="search" />
          {T.search}
        </button>
      </form>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {result ? (
        <div aria-live="polite">
          {result.rows.length === 0 ? (
            <p className="empty">{T.noCases}</p>
          ) : (
            <div className="mt-table-wrap">
              <table className="mt-table">
                <thead>
                  <tr>
                    <th>{T.caseId}</th>
                    <th>{T.doctor}</th>
                    <th>{T.clinic}</th>
                    <th>{T.status}</th>
                    <th>{T.stage}</th>
                    <th>{T.usedAt}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.rows.map((row) => (
                    <tr key={`${row.caseId}-${row.stage}-${row.usedAt}`}>
                      <td className="mono">{row.caseId}</td>
                      <td>{row.doctorUsername ?? ''}</td>
                      <td>{row.clinicName}</td>
                      <td>{row.status}</td>
                      <td>{row.stage}</td>
                      <td>{formatDate(row.usedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <a className="button button--ghost" href={recallCsvUrl(result.lotNumber)} download>
            <Icon name="download" />
            {T.downloadCsv}
          </a>
        </div>
      ) : null}
    </section>
  );
}
