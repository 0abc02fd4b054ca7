import { useEffect, useRef, useState } from 'react';
import { ApiError, NetworkError } from '../../api/client';
import { cache } from '../../api/cache';
import { generateCaseQr } from './qrApi';
import { qrDataUrl } from '../../components/qrImage';
import { QR_TEXTS } from './texts';

export type CaseQrState =
  { status: 'loading' } | { status: 'ready'; dataUrl: string } | { status: 'error'; message: string };

/**
 * Asks the server for the case QR (POST /cases/{id}/qr, which may self-assign a Technician; the
 * answer's case goes into the cache), then draws it. One request per case, even when React runs
 * the effect twice in development.
 */
export function useCaseQr(caseId: string): CaseQrState {
  const [state, setState] = useState<CaseQrState>({ status: 'loading' });
  const pending = useRef<{ caseId: string; promise: Promise<string> } | null>(null);

  useEffect(() => {
    let active = true;
    if (pending.current?.caseId !== caseId) {
      setState({ status: 'loading' });
      pending.current = {
        caseId,
        promise: generateCaseQr(caseId).then((answer) => {
          cache.upsertCase(answer.case);
          return qrDataUrl(answer.payload);
        }),
      };
    }
    pending.current.promise.then(
      (dataUrl) => active && setState({ status: 'ready', dataUrl }),
      (error: unknown) => {
        if (!active) return;
        const message =
          error instanceof ApiError || error instanceof NetworkError ? error.message : QR_TEXTS.failed;
        setState({ status: 'error', message });
      },
    );
    return () => {
      active = false;
    };
  }, [caseId]);

  return state;
}
