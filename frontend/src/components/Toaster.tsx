import { dismissToast, useToasts } from './toastStore';
import { Icon } from './Icon';

export function Toaster() {
  const toasts = useToasts();
  return (
    <div className="toaster" role="status" aria-live="polite">
      {toasts.map((item) => (
        <div key={item.id} className={`toast toast--${item.variant}`}>
          <div>
            <strong className="toast__title">{item.title}</strong>
            {item.description ? <p className="toast__text">{item.description}</p> : null}
          </div>
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss"
            onClick={() => dismissToast(item.id)}
          >
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
