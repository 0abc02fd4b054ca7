import { useRef } from 'react';
import { CAMERA_TEXTS } from '../../components/cameraTexts';
import { useCameraScanner } from '../../components/useCameraScanner';

/** The camera reading a lot label (the app's html5-qrcode path); each decoded text goes to `onDecode`. */
export function LotScanner({ onDecode }: { onDecode: (text: string) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const camera = useCameraScanner(host, onDecode);
  return (
    <div className={`scanner mt-scanner${camera.status === 'error' ? ' scanner--error' : ''}`}>
      <div ref={host} className="scanner__view" aria-label={CAMERA_TEXTS.cameraView} role="img" />
      {camera.status === 'starting' ? (
        <div className="scanner__overlay">
          <span className="spinner" aria-hidden="true" />
          <span>{CAMERA_TEXTS.startingCamera}</span>
        </div>
      ) : null}
      {camera.status === 'scanning' ? <div className="scanner__aim" aria-hidden="true" /> : null}
      {camera.status === 'error' ? (
        <p className="scanner__error" role="alert">
          {camera.message}
        </p>
      ) : null}
    </div>
  );
}
