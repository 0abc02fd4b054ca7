/** Texts of the case QR dialogs (spec section 2, "Case QR dialogs"). */
export const QR_TEXTS = {
  caseTitle: 'Case QR Code',
  stageTitle: 'Aligner Stage QR Codes',
  generating: 'Generating QR Code...',
  print: 'Print',
  download: 'Download',
  close: 'Close',
  caseId: 'Case ID',
  patient: 'Patient',
  stageLabel: (stage: number, total: number) => `Stage ${stage} / ${total}`,
  qrAlt: (caseId: string) => `QR code of case ${caseId}`,
  stageQrAlt: (stage: number, total: number) => `QR code of stage ${stage} of ${total}`,
  stageSheetFor: (patient: string) => `For ${patient}`,
  noStages: 'This case has no aligner stages yet.',
  failed: 'The QR code could not be generated.',
  downloadName: (caseId: string) => `qrcode-${caseId}.png`,
} as const;
