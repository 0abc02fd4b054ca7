import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { SCAN_TEXTS } from './texts';

/** The scanner dialog opened by #scan (the camera scanner arrives with the case screens). */
export function ScanDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog
      title={SCAN_TEXTS.title}
      onClose={onClose}
      size="small"
      footer={
        <button type="button" className="button button--ghost" onClick={onClose} data-autofocus>
          {SCAN_TEXTS.close}
        </button>
      }
    >
      <div className="scanner-frame" aria-hidden="true">
        <Icon name="qr" size={64} />
      </div>
      <p className="hint">{SCAN_TEXTS.hint}</p>
    </Dialog>
  );
}
