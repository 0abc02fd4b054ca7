import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

type WebAuthnModule = typeof import('@simplewebauthn/browser');

let loading: Promise<WebAuthnModule> | undefined;

/** The WebAuthn helpers are loaded on first use: only the passkey screens need them. */
function loadWebAuthn(): Promise<WebAuthnModule> {
  loading ??= import('@simplewebauthn/browser');
  return loading;
}

/** Asks the browser to create a passkey; the answer is the registration response to send. */
export async function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<unknown> {
  const { startRegistration } = await loadWebAuthn();
  return startRegistration({ optionsJSON });
}

/** Asks the browser to sign with a passkey; the answer is the authentication response to send. */
export async function signWithPasskey(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<unknown> {
  const { startAuthentication } = await loadWebAuthn();
  return startAuthentication({ optionsJSON });
}

/**
 * The user closed the browser's passkey prompt or it timed out: not a failure to report as such.
 * The library passes on the browser's NotAllowedError.
 */
export function passkeyCancelled(error: unknown): boolean {
  return error instanceof Error && error.name === 'NotAllowedError';
}
