import { useEffect, useState } from 'react';
import { stagePayload } from '@alignerflow/domain';
import { qrDataUrl } from '../../components/qrImage';
import { QR_TEXTS } from './texts';

export type StageQrState =
  | { status: 'loading' }
  | { status: 'ready'; images: { stage: number; dataUrl: string }[] }
  | { status: 'error'; message: string };

/** Draws one QR per aligner stage: JSON {caseId, stage} (spec section 3). */
export function useStageQrs(caseId: string, stages: number[]): StageQrState {
  const [state, setState] = useState<StageQrState>({ status: 'loading' });
  const key = stages.join(',');

  useEffect(() => {
    let active = true;
    const numbers = key ? key.split(',').map(Number) : [];
    setState({ status: 'loading' });
    Promise.all(
      numbers.map(async (stage) => ({ stage, dataUrl: await qrDataUrl(stagePayload(caseId, stage), 320) })),
    ).then(
      (images) => active && setState({ status: 'ready', images }),
      () => active && setState({ status: 'error', message: QR_TEXTS.failed }),
    );
    return () => {
      active = false;
    };
  }, [caseId, key]);

  return state;
}
