/** Texts of the QR scanner (spec section 2). */
export const SCAN_TEXTS = {
  title: 'Scan Case QR Code',
  hint: 'Point your camera at the QR code on the case file.',
  close: 'Close',
} as const;
