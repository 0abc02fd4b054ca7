import type { User } from '@alignerflow/domain';
import { Icon } from '../../components/Icon';
import { DUE_TEXTS } from '../case-shared/texts';
import { useNow } from '../../components/useNow';
import { QueueCard } from './QueueCard';
import { QUEUE_TEXTS as T } from './texts';
import { useWorkQueue } from './useWorkQueue';

interface MyQueueProps {
  user: User;
  onOpenCase: (id: string) => void;
  onScan: () => void;
}

/** My Queue: the cases waiting for the signed-in staff member, each one tap from its next stage. */
export function MyQueue({ user, onOpenCase, onScan }: MyQueueProps) {
  const queue = useWorkQueue(user);
  const now = useNow(queue.status === 'ready' ? queue.cases : null);

  return (
    <div className="page queue">
      <div className="page__title-row page__title-row--split">
        <div>
          <h1>
            {T.title}{' '}
            {queue.status === 'ready' ? (
              <span className="queue__count">{T.count(queue.cases.length)}</span>
            ) : null}
          </h1>
          <p className="muted small">{T.subtitle}</p>
        </div>
        <button type="button" className="button button--secondary queue__scan" onClick={onScan}>
          <Icon name="qr" />
          {DUE_TEXTS.scan}
        </button>
      </div>
      {queue.status === 'loading' ? (
        <p className="empty" role="status">
          {T.loading}
        </p>
      ) : queue.status === 'error' ? (
        <div className="queue__error" role="alert">
          <p className="form-error">
            {T.failed} {queue.message}
          </p>
          <button type="button" className="button button--secondary" onClick={queue.retry}>
            {T.retry}
          </button>
        </div>
      ) : queue.cases.length === 0 ? (
        <p className="empty-state">{T.empty}</p>
      ) : (
        <ul className="queue__list" aria-label={T.listLabel}>
          {queue.cases.map((item) => (
            <QueueCard key={item.id} item={item} user={user} now={now} onOpenCase={onOpenCase} />
          ))}
        </ul>
      )}
    </div>
  );
}
