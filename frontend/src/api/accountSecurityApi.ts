import type {
  LoginAnswer,
  MfaLoginBody,
  Passkey,
  PasskeyLoginBody,
  PasskeyLoginOptionsBody,
  PasskeyRegisterBody,
  ReauthBody,
  RecoveryCodesAnswer,
  SessionInfo,
  SignInAnswer,
  TotpConfirmBody,
  TotpSetupAnswer,
} from '@alignerflow/domain';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { request } from './client';

const enc = encodeURIComponent;

/** Two-step sign-in, passkeys, step-up and sessions (api.md, Accounts). */
export const accountApi = {
  startTotp: () => request<TotpSetupAnswer>('POST', '/auth/mfa/totp'),
  confirmTotp: (code: string) =>
    request<RecoveryCodesAnswer>('POST', '/auth/mfa/totp/confirm', {
      body: { code } satisfies TotpConfirmBody,
      quietStatuses: [400, 401],
    }),
  removeTotp: () => request<void>('DELETE', '/auth/mfa/totp'),

  passkeys: () => request<Passkey[]>('GET', '/auth/passkeys'),
  passkeyRegistrationOptions: () =>
    request<PublicKeyCredentialCreationOptionsJSON>('POST', '/auth/passkeys/options'),
  addPasskey: (credential: unknown, name: string) =>
    request<Passkey>('POST', '/auth/passkeys', {
      body: { credential, name } satisfies PasskeyRegisterBody,
      quietStatuses: [400],
    }),
  removePasskey: (id: string) => request<void>('DELETE', `/auth/passkeys/${enc(id)}`),

  /** `{}` for a passkey alone, `{mfaToken}` as a second step. */
  passkeyLoginOptions: (body: PasskeyLoginOptionsBody = {}) =>
    request<PublicKeyCredentialRequestOptionsJSON>('POST', '/auth/passkeys/login/options', {
      body,
      quietStatuses: [401],
    }),
  passkeyLogin: (credential: unknown) =>
    request<SignInAnswer>('POST', '/auth/passkeys/login', {
      body: { credential } satisfies PasskeyLoginBody,
      quietStatuses: [400, 401, 429],
    }),
  secondStep: (body: MfaLoginBody) =>
    request<LoginAnswer>('POST', '/auth/login/mfa', { body, quietStatuses: [400, 401, 429] }),

  /** The options of a passkey assertion that confirms it is the signed-in user. */
  reauthOptions: () =>
    request<PublicKeyCredentialRequestOptionsJSON>('POST', '/auth/reauth/options', { body: {} }),
  reauth: (body: ReauthBody) =>
    request<void>('POST', '/auth/reauth', { body, quietStatuses: [400, 401, 429] }),

  sessions: () => request<SessionInfo[]>('GET', '/auth/sessions'),
  endSession: (id: string) => request<void>('DELETE', `/auth/sessions/${enc(id)}`),

  /** A Manager removes a user's factors and ends their sessions (step-up). */
  resetTwoStep: (username: string) => request<void>('POST', `/users/${enc(username)}/mfa/reset`),
};
