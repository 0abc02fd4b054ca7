import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  ACCESS_ACTIONS,
  ACCESS_LOG_TEXTS as T,
  parseAccessLogFilter,
  type AccessEntry,
  type AccessLogFilter,
} from '@alignerflow/domain';
import { Icon } from '../../components/Icon';
import { AccessEntries } from './AccessEntries';
import { accessLogApi } from './accessLogApi';

type State =
  { status: 'loading' } | { status: 'ready'; entries: AccessEntry[] } | { status: 'failed'; reason: string };

/** Settings › Access log (Managers): every read and export, filtered, with its CSV. */
export function AccessLogSettings() {
  const id = useId();
  const [draft, setDraft] = useState({ username: '', action: '', from: '', to: '' });
  const [filter, setFilter] = useState<AccessLogFilter>({});
  const [invalid, setInvalid] = useState<string | null>(null);
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    accessLogApi.search(filter).then(
      (entries) => current && setState({ status: 'ready', entries }),
      (error: unknown) =>
        current &&
        setState({ status: 'failed', reason: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [filter]);

  function apply(event: FormEvent) {
    event.preventDefault();
    // The same check the server makes, so a mistake is named before anything is sent.
    const parsed = parseAccessLogFilter(draft);
    if ('error' in parsed) return setInvalid(parsed.error);
    setInvalid(null);
    setFilter(parsed.filter);
  }

  const field = (name: keyof typeof draft) => ({
    id: `${id}-${name}`,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });

  return (
    <div className="access-settings">
      <p className="muted small">{T.intro}</p>
      <form className="access-filter" onSubmit={apply} aria-label={T.filters}>
        <label htmlFor={`${id}-username`}>
          {T.username}
          <input type="text" autoComplete="off" {...field('username')} />
        </label>
        <label htmlFor={`${id}-action`}>
          {T.action}
          <select {...field('action')}>
            <option value="">{T.anyAction}</option>
            {ACCESS_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {T.actionLabels[action]}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={`${id}-from`}>
          {T.fromDay}
          <input type="date" {...field('from')} />
        </label>
        <label htmlFor={`${id}-to`}>
          {T.toDay}
          <input type="date" {...field('to')} />
        </label>
        <div className="access-filter__buttons">
          <button type="submit" className="button button--small">
            {T.apply}
          </button>
          <a className="button button--small button--secondary" href={accessLogApi.csvUrl(filter)} download>
            <Icon name="download" />
            {T.downloadCsv}
          </a>
        </div>
      </form>
      <div aria-live="polite">
        {invalid ? (
          <p className="form-error" role="alert">
            {invalid}
          </p>
        ) : null}
      </div>
      {state.status === 'loading' ? (
        <p className="muted" role="status">
          {T.loading}
        </p>
      ) : state.status === 'failed' ? (
        <p className="form-error" role="alert">
          {T.failed} {state.reason}
        </p>
      ) : state.entries.length === 0 ? (
        <p className="muted">{T.noEntries}</p>
      ) : (
        <AccessEntries entries={state.entries} withCase />
      )}
    </div>
  );
}
