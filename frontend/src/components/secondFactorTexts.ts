/** The second factor's words, the same at sign-in and in re-authentication (CodeField, passkeys). */
export const SECOND_FACTOR_TEXTS = {
  passkeySignInCancelled: 'No passkey was used.',
  usePasskey: 'Use a passkey',
  codeFormat: 'Enter the 6 digits your authenticator app shows.',
  codeLabel: '6-digit code',
} as const;
