/**
 * Two-step sign-in, step-up and sessions (api.md, Accounts). The texts are exact: the server
 * answers them and the app shows them.
 */
import { USER_TEXTS, type User } from '../users/users.js';

export const ACCOUNT_TEXTS = {
  passwordTooEasy: 'This password is too easy to guess. Choose another.',
  codeInvalid: 'The code is not valid.',
  signInAgain: 'Sign in again.',
  setUpTwoStepFirst: 'Set up two-step sign-in first.',
  confirmItIsYou: 'Confirm it is you to continue.',
  usernameOfDeletedUser: USER_TEXTS.usernameOfDeletedUser,
  newSignInSubject: 'New sign-in to AlignerFlow',
  /** A passkey sign-in (or confirmation) whose credential is unknown, or whose signature is wrong. */
  passkeyNotRecognised: 'This passkey is not recognised.',
  /** `POST /auth/passkeys` with a registration the server cannot verify (or an expired one). */
  passkeyNotVerified: 'The passkey could not be verified. Try again.',
  /** `POST /auth/reauth` with a wrong password. */
  passwordWrong: 'The password is not correct.',
  newSignInBody: (time: string, address: string, browser: string) =>
    `Someone signed in to your account on ${time} from ${address} with ${browser}. ` +
    'If it was not you, change your password and end that session in Settings.',
} as const;

/** The second factors a sign-in may ask for. */
export type MfaMethod = 'totp' | 'passkey' | 'recovery';

/** An mfaToken lives this long ... */
export const MFA_TOKEN_MS = 5 * 60 * 1000;
/** ... and dies after this many wrong codes. */
export const MFA_TOKEN_MAX_FAILURES = 5;
/** A step-up call needs a session that proved its user within this window. */
export const STEP_UP_MS = 10 * 60 * 1000;
/** How many single-use recovery codes an authenticator's confirmation hands out. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * `POST /auth/login` (and `/auth/login/mfa`, `/auth/passkeys/login`) of a user who has a second
 * factor: no session yet; the second step names the token.
 */
export interface MfaChallengeAnswer {
  mfaRequired: true;
  mfaToken: string;
  methods: MfaMethod[];
}

/** `POST /auth/login/mfa`: exactly one of code, recoveryCode or credential. */
export interface MfaLoginBody {
  mfaToken: string;
  code?: string;
  recoveryCode?: string;
  /** A WebAuthn authentication response (JSON), after `POST /auth/passkeys/login/options {mfaToken}`. */
  credential?: unknown;
}

/** `GET /auth/me`'s `mfa`: the caller's factors and whether their role must have one. */
export interface MfaStatus {
  totp: boolean;
  passkeys: number;
  required: boolean;
}

/** `POST /auth/mfa/totp`: a new authenticator secret, not yet active. */
export interface TotpSetupAnswer {
  secret: string;
  otpauthUrl: string;
}

/** `POST /auth/mfa/totp/confirm`'s body. */
export interface TotpConfirmBody {
  code: string;
}

/** `POST /auth/mfa/totp/confirm`: the 10 single-use recovery codes, shown once. */
export interface RecoveryCodesAnswer {
  recoveryCodes: string[];
}

/** `POST /auth/passkeys`'s body: the registration response (WebAuthn JSON) and a name for it. */
export interface PasskeyRegisterBody {
  credential: unknown;
  name: string;
}

/** `POST /auth/passkeys` (201) and each entry of `GET /auth/passkeys`. */
export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
}

/** `POST /auth/passkeys/login/options`'s body: `{}` for a passkey alone, `{mfaToken}` as a second step. */
export interface PasskeyLoginOptionsBody {
  mfaToken?: string;
}

/** `POST /auth/passkeys/login`'s body. */
export interface PasskeyLoginBody {
  credential: unknown;
}

/** `POST /auth/reauth`: exactly one of them. */
export interface ReauthBody {
  password?: string;
  code?: string;
  credential?: unknown;
}

/** The 403 of a step-up call whose session has not proved its user recently. */
export interface ReauthRequiredAnswer {
  error: typeof ACCOUNT_TEXTS.confirmItIsYou;
  reauth: true;
}

/** Each entry of `GET /auth/sessions` (the caller's own sessions). */
export interface SessionInfo {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  address: string | null;
  userAgent: string | null;
  rememberMe: boolean;
}

/** What a sign-in answers: a session, or the request for a second step. */
export type SignInAnswer = { user: User; token: string } | MfaChallengeAnswer;
