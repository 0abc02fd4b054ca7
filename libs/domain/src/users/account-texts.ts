import { USER_TEXTS } from './users.js';

/** The texts of sign-in, two-step sign-in and step-up (api.md, Accounts): exact, the server answers them and the app shows them. */
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
