import { useEffect, useRef, useState, type RefObject } from 'react';
import { cameraErrorMessage, cameraSupported } from './cameraErrors';
import { CAMERA_TEXTS } from './cameraTexts';

export type CameraState =
  { status: 'starting' } | { status: 'scanning' } | { status: 'error'; message: string };

/** Camera starts and stops run one after another, so a quick close and reopen never share a camera. */
let cameraQueue: Promise<void> = Promise.resolve();
let readerCount = 0;

/**
 * Runs html5-qrcode's Html5Qrcode (the camera class, not its scanner widget) inside `host`,
 * loaded on first use. Each decoded text goes to `onDecode`; the camera stops on unmount.
 */
export function useCameraScanner(
  host: RefObject<HTMLDivElement | null>,
  onDecode: (text: string) => void,
): CameraState {
  const [state, setState] = useState<CameraState>(() =>
    cameraSupported()
      ? { status: 'starting' }
      : { status: 'error', message: CAMERA_TEXTS.camera.notSupported },
  );
  const decode = useRef(onDecode);
  decode.current = onDecode;

  useEffect(() => {
    const container = host.current;
    if (!container || !cameraSupported()) return;
    let cancelled = false;
    let scanner: import('html5-qrcode').Html5Qrcode | null = null;
    let running = false;
    // A fresh element per start: html5-qrcode owns its contents until it is stopped.
    const element = document.createElement('div');
    element.id = `qr-reader-${++readerCount}`;
    element.className = 'scanner__reader';
    container.appendChild(element);

    cameraQueue = cameraQueue.then(async () => {
      if (cancelled) return;
      try {
        const { Html5Qrcode, Html5QrcodeSupportedFormats } = await import('html5-qrcode');
        if (cancelled) return;
        scanner = new Html5Qrcode(element.id, {
          verbose: false,
          formatsToSupport: [Html5QrcodeSupportedFormats.QR_CODE],
        });
        await scanner.start(
          { facingMode: 'environment' },
          { fps: 10 },
          (text) => decode.current(text),
          () => undefined,
        );
        running = true;
        if (!cancelled) setState({ status: 'scanning' });
      } catch (error) {
        console.warn('Camera could not start', error);
        if (!cancelled) setState({ status: 'error', message: cameraErrorMessage(error) });
      }
    });

    return () => {
      cancelled = true;
      cameraQueue = cameraQueue.then(async () => {
        try {
          if (scanner && running) await scanner.stop();
          scanner?.clear();
        } catch (error) {
          console.warn('Camera could not stop cleanly', error);
        }
        element.remove();
      });
    };
  }, [host]);

  return state;
}
