import { QR_OPTIONS } from '@alignerflow/domain';

type QrModule = typeof import('qrcode');

let loading: Promise<QrModule> | undefined;

/** The qrcode library is loaded on first use (it is not needed by the rest of the app). */
function loadQrcode(): Promise<QrModule> {
  loading ??= import('qrcode').then((module) => {
    const withDefault = module as QrModule & { default?: QrModule };
    return withDefault.default ?? module;
  });
  return loading;
}

/**
 * A PNG data URL of the payload as a QR code of type 4, error correction M (spec section 9).
 * The library throws when the text does not fit that version.
 */
export async function qrDataUrl(payload: string, width = 512): Promise<string> {
  const QRCode = await loadQrcode();
  return QRCode.toDataURL(payload, { ...QR_OPTIONS, width, margin: 2 });
}

/**
 * A PNG data URL of a longer text (an authenticator's otpauth address) in the smallest QR
 * version that holds it: the fixed version 4 is for the lab's printed labels only.
 */
export async function qrDataUrlOfText(text: string, width = 512): Promise<string> {
  const QRCode = await loadQrcode();
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', width, margin: 2 });
}
