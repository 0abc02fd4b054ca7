import { useCallback, useEffect, useRef, useState } from 'react';
import { parseQrPayload } from '@alignerflow/domain';
import { ApiError } from '../../api/client';
import { cache } from '../../api/cache';
import { toast } from '../../components/toastStore';
import { postScan } from './scanApi';
import { SCAN_TEXTS, STAGE_SCAN_CLOSE_MS } from './texts';
import { errorMessage } from '../../api/errorMessage';

export type ScanPhase = 'idle' | 'case' | 'stage' | 'done';

/** A refused code is not tried again while it stays in front of the camera. */
const RETRY_SAME_CODE_MS = 3000;

/**
 * What a scanned text does (spec sections 4 and 8): a case QR opens the case ('Case Found'); a
 * stage QR shows 'Stage scan detected — starting…', starts the stage through POST /scan, shows
 * 'Stage Started' and closes after 0.8 s; 'Scan Invalid' (409) and 'Invalid QR Code' (404) otherwise.
 */
export function useScanResult(onClose: () => void, onOpenCase: (caseId: string) => void) {
  const [phase, setPhase] = useState<ScanPhase>('idle');
  const busy = useRef(false);
  const refused = useRef<{ text: string; at: number } | null>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);
  const callbacks = useRef({ onClose, onOpenCase });
  callbacks.current = { onClose, onOpenCase };

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(closeTimer.current);
    };
  }, []);

  const handle = useCallback(async (raw: string) => {
    const text = raw.trim();
    if (busy.current) return;
    const last = refused.current;
    if (last && last.text === text && Date.now() - last.at < RETRY_SAME_CODE_MS) return;
    const parsed = parseQrPayload(text);
    if (!parsed) {
      refused.current = { text, at: Date.now() };
      toast(SCAN_TEXTS.invalidQr, undefined, 'error');
      return;
    }
    busy.current = true;
    setPhase(parsed.kind);
    try {
      const answer = await postScan(text);
      cache.upsertCase(answer.case);
      if (answer.kind === 'case') {
        toast(SCAN_TEXTS.caseFound, SCAN_TEXTS.caseFoundText(answer.case.id, answer.case.patientName));
        callbacks.current.onClose();
        callbacks.current.onOpenCase(answer.case.id);
        return;
      }
      toast(SCAN_TEXTS.stageStarted, SCAN_TEXTS.stageStartedText(answer.started));
      if (mounted.current) setPhase('done');
      closeTimer.current = setTimeout(() => {
        callbacks.current.onClose();
        callbacks.current.onOpenCase(answer.case.id);
      }, STAGE_SCAN_CLOSE_MS);
    } catch (error) {
      busy.current = false;
      refused.current = { text, at: Date.now() };
      if (mounted.current) setPhase('idle');
      if (error instanceof ApiError && error.status === 404) {
        toast(SCAN_TEXTS.invalidQr, undefined, 'error');
      } else if (error instanceof ApiError && error.status === 409) {
        toast(SCAN_TEXTS.scanInvalid, error.message, 'info');
      } else {
        toast(SCAN_TEXTS.scanInvalid, errorMessage(error), 'error');
      }
    }
  }, []);

  return { phase, handle };
}
