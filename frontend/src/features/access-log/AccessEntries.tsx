import { ACCESS_LOG_TEXTS as T, type AccessEntry, type CaseAccessEntry } from '@alignerflow/domain';
import { formatDateTime } from '../../components/formatDateTime';

/** Who, when, what, from where: one row per read, newest first, as the server answered. */
export function AccessEntries({
  entries,
  withCase = false,
}: {
  entries: (CaseAccessEntry | AccessEntry)[];
  withCase?: boolean;
}) {
  return (
    <ol className="access-log" aria-label={T.title}>
      {entries.map((entry, index) => (
        <li key={`${entry.at}-${index}`} className="access-log__item">
          <p className="access-log__what">
            <strong>{entry.username}</strong> <span className="muted">({entry.role})</span> ·{' '}
            {T.actionLabels[entry.action]} <span className="access-log__detail">{entry.detail}</span>
            {withCase && 'caseId' in entry && entry.caseId ? <> · {entry.caseId}</> : null}
          </p>
          <p className="muted small">
            <time dateTime={entry.at}>{formatDateTime(entry.at)}</time> · {T.from} {entry.address || '—'}
          </p>
        </li>
      ))}
    </ol>
  );
}
