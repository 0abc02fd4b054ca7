/** The case QR dialogs (spec section 2), used by the case detail screen. */
export { CaseQrDialog, type CaseQrDialogProps } from './CaseQrDialog';
export { StageQrSheet, type StageQrSheetProps } from './StageQrSheet';
/** What other printouts share: the print sheet and the case QR's image (type 4, level M). */
export { PrintSheet } from './PrintSheet';
export { qrDataUrl } from './qrImage';
