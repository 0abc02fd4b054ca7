import { ACCOUNT_TEXTS, RECOVERY_CODE_COUNT } from '@alignerflow/domain';
import { SECOND_FACTOR_TEXTS } from '../../components/secondFactorTexts';

/** Texts of two-step sign-in, passkeys, re-authentication and sessions (api.md, Accounts). */
export const SECURITY_TEXTS = {
  ...SECOND_FACTOR_TEXTS,
  // Account → Two-step sign-in
  twoStep: 'Two-step sign-in',
  twoStepHint:
    'After your password, AlignerFlow also asks for a code from an authenticator app or for a passkey.',
  authenticator: 'Authenticator app',
  authenticatorOn: 'On: sign-in asks for a code from your authenticator app.',
  authenticatorOff: 'Not set up.',
  addAuthenticator: 'Set up an authenticator',
  removeAuthenticator: 'Remove authenticator',
  confirmRemoveAuthenticator: 'Remove the authenticator app from your account?',
  authenticatorRemoved: 'Authenticator removed',
  scanQr: 'Scan this QR code with your authenticator app, or enter the key by hand.',
  qrAlt: 'QR code for your authenticator app',
  secretLabel: 'Key for manual entry',
  codeHint: 'The code your authenticator app shows now.',
  confirmAuthenticator: 'Turn on',
  cancel: 'Cancel',
  recoveryCodes: 'Recovery codes',
  recoveryCodesHint: `Keep these ${RECOVERY_CODE_COUNT} codes somewhere safe. Each signs you in once if you lose your authenticator. They are shown only now.`,
  downloadCodes: 'Download (.txt)',
  copyCodes: 'Copy',
  codesCopied: 'Recovery codes copied.',
  copyFailed: 'Copying failed: select the codes and copy them by hand.',
  codesSaved: 'I have saved them',
  recoveryFileName: 'alignerflow-recovery-codes.txt',
  recoveryFileHeader: (username: string) => `AlignerFlow recovery codes for ${username}. Each works once.`,

  passkeys: 'Passkeys',
  passkeysHint: 'Sign in with your fingerprint, face or device PIN instead of a password and code.',
  noPasskeys: 'No passkeys yet.',
  addPasskey: 'Add a passkey',
  passkeyName: 'Passkey name',
  passkeyNameDefault: 'My device',
  savePasskey: 'Create passkey',
  removePasskey: (name: string) => `Remove passkey ${name}`,
  confirmRemovePasskey: (name: string) => `Remove the passkey "${name}"?`,
  passkeyAdded: 'Passkey added',
  passkeyRemoved: 'Passkey removed',
  passkeyCancelled: 'The passkey was not created: the prompt was closed.',
  addedOn: (date: string) => `Added ${date}`,
  loadFailed: 'Could not load your sign-in methods.',
  remove: 'Remove',

  codeInvalid: ACCOUNT_TEXTS.codeInvalid,

  // Enrolment screen
  enrolTitle: 'Set up two-step sign-in',
  enrolHint:
    'Your role must sign in with a second step. Set up an authenticator app or a passkey to continue.',
  signOut: 'Sign out',

  // Re-authentication
  reauthTitle: 'Confirm it is you',
  reauthHint: ACCOUNT_TEXTS.confirmItIsYou,
  reauthPassword: 'Your password',
  reauthWithCode: 'Use a code instead',
  reauthWithPassword: 'Use your password instead',
  confirm: 'Confirm',
  reauthCancelled: 'Cancelled: this needs you to confirm it is you.',

  // Sessions
  sessions: 'Signed-in devices',
  sessionsHint: 'Where your account is signed in now.',
  thisDevice: 'This device',
  signOutDevice: 'Sign out',
  signOutDeviceLabel: (browser: string) => `Sign out ${browser}`,
  confirmSignOutDevice: (browser: string) => `Sign out ${browser}?`,
  deviceSignedOut: 'Device signed out',
  unknownBrowser: 'Unknown browser',
  unknownAddress: 'Unknown address',
  lastSeen: (when: string) => `Last seen ${when}`,
  rememberMe: 'Remembered',
  noSessions: 'No sessions.',
} as const;
