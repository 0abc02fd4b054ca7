import { useRef } from 'react';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { ManualEntry } from './ManualEntry';
import { SCAN_TEXTS } from './texts';
import { useCameraScanner } from '../../components/useCameraScanner';
import { useScanResult } from './useScanResult';

interface ScanDialogProps {
  onClose: () => void;
  /** Shows a case found by its QR (or the case whose stage was just started). */
  onOpenCase: (caseId: string) => void;
}

/** 'Scan Case QR Code': the camera reads case and stage QR codes (spec sections 2, 4 and 8). */
export function ScanDialog({ onClose, onOpenCase }: ScanDialogProps) {
  const host = useRef<HTMLDivElement>(null);
  const result = useScanResult(onClose, onOpenCase);
  const camera = useCameraScanner(host, (text) => void result.handle(text));
  const working = result.phase !== 'idle';

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
      <div className={`scanner${camera.status === 'error' ? ' scanner--error' : ''}`}>
        <div ref={host} className="scanner__view" aria-label={SCAN_TEXTS.cameraView} role="img" />
        {camera.status === 'starting' ? (
          <div className="scanner__overlay">
            <span className="spinner" aria-hidden="true" />
            <span>{SCAN_TEXTS.startingCamera}</span>
          </div>
        ) : null}
        {camera.status === 'error' ? (
          <div className="scanner__overlay">
            <Icon name="qr" size={48} />
          </div>
        ) : null}
        {camera.status === 'scanning' ? <div className="scanner__aim" aria-hidden="true" /> : null}
      </div>
      {camera.status === 'error' ? (
        <p className="scanner__error" role="alert">
          {camera.message}
        </p>
      ) : null}
      <p className="hint">{SCAN_TEXTS.hint}</p>
      <p className="scanner__status" role="status" aria-live="polite">
        {result.phase === 'stage' || result.phase === 'done' ? SCAN_TEXTS.stageDetected : null}
        {result.phase === 'case' ? SCAN_TEXTS.lookingUp : null}
      </p>
      <ManualEntry
        open={camera.status === 'error'}
        disabled={working}
        onSubmit={(text) => void result.handle(text)}
      />
    </Dialog>
  );
}
