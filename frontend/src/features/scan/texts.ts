import { CASE_TEXTS, STAGING_TEXTS } from '@alignerflow/domain';
import { CAMERA_TEXTS } from '../../components/cameraTexts';

/** Texts of the QR scanner (spec sections 2 and 8). */
export const SCAN_TEXTS = {
  ...CAMERA_TEXTS,
  title: 'Scan Case QR Code',
  hint: 'Point your camera at the QR code on the case file.',
  close: 'Close',
  stageDetected: 'Stage scan detected — starting…',
  lookingUp: 'Looking up the case…',

  // Spec section 8, success message and scan notices.
  stageStarted: 'Stage Started',
  stageStartedText: (stage: number) =>
    stage > 1
      ? `${STAGING_TEXTS.stageStarted(stage)} ${STAGING_TEXTS.previousCompleted(stage - 1)}`
      : STAGING_TEXTS.stageStarted(stage),
  scanInvalid: 'Scan Invalid',
  invalidQr: CASE_TEXTS.invalidQr,
  caseFound: 'Case Found',
  caseFoundText: (caseId: string, patient: string) => `${caseId} — ${patient}`,

  manualTitle: 'Enter the code instead',
  manualLabel: 'QR code text or case ID',
  manualSubmit: 'Look up',
} as const;

/** Spec section 9: a successful stage scan closes the scanner after 0.8 s. */
export const STAGE_SCAN_CLOSE_MS = 800;
