import { Dialog } from '../../components/Dialog';
import { CASE_SCREEN_TEXTS } from './texts';

/** Stand-in for the new case wizard and the Edit Case modal. */
export function PlaceholderDialog({ title, onClose }: { title: string; onClose: () => void }) {
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <button type="button" className="button button--ghost" onClick={onClose} data-autofocus>
          {CASE_SCREEN_TEXTS.cancel}
        </button>
      }
    >
      <p className="muted">{CASE_SCREEN_TEXTS.comingSoon}</p>
    </Dialog>
  );
}
