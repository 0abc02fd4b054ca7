import { CAMERA_TEXTS } from './cameraTexts';

const DENIED = ['NotAllowedError', 'PermissionDeniedError', 'SecurityError'];
const NOT_FOUND = ['NotFoundError', 'DevicesNotFoundError', 'OverconstrainedError'];
const IN_USE = ['NotReadableError', 'TrackStartError', 'AbortError'];

/** The error's name: a DOMException's, or the one html5-qrcode writes into its message string. */
function errorName(error: unknown): string {
  if (error && typeof error === 'object' && 'name' in error && typeof error.name === 'string') {
    return error.name;
  }
  return String(error);
}

/** Spec section 8, "Camera": which message a failed camera start shows. */
export function cameraErrorMessage(error: unknown): string {
  const name = errorName(error);
  const text = `${name} ${error instanceof Error ? error.message : ''}`;
  const has = (names: string[]) => names.some((candidate) => text.includes(candidate));
  if (has(DENIED)) return CAMERA_TEXTS.camera.denied;
  if (has(NOT_FOUND)) return CAMERA_TEXTS.camera.notFound;
  if (has(IN_USE)) return CAMERA_TEXTS.camera.inUse;
  if (/not supported/i.test(text)) return CAMERA_TEXTS.camera.notSupported;
  return CAMERA_TEXTS.camera.generic;
}

/** Camera access needs navigator.mediaDevices.getUserMedia (and a secure context). */
export function cameraSupported(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}
