import { Icon } from '../components/Icon';
import { APP_TEXTS } from './texts';

export function FatalErrorScreen({ detail, onRetry }: { detail?: string; onRetry: () => void }) {
  return (
    <main className="center-screen">
      <div className="fatal" role="alert">
        <Icon name="alert" size={40} />
        <h1>{APP_TEXTS.fatal}</h1>
        {detail ? <p className="muted">{detail}</p> : null}
        <button type="button" className="button button--primary" onClick={onRetry}>
          {APP_TEXTS.retry}
        </button>
      </div>
    </main>
  );
}
