/** The case QR dialogs (spec section 2), used by the case detail screen. */
export { CaseQrDialog, type CaseQrDialogProps } from './CaseQrDialog';
export { StageQrSheet, type StageQrSheetProps } from './StageQrSheet';
