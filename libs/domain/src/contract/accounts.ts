/**
 * Two-step sign-in, step-up and sessions (api.md, Accounts). The texts are exact: the server
 * answers them and the app shows them.
 */
import { ACCOUNT_TEXTS } from '../users/account-texts.js';
import type { User } from '../users/users.js';

export { ACCOUNT_TEXTS };

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
