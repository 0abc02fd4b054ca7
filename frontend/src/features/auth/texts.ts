import { ACCOUNT_TEXTS, USER_TEXTS } from '@alignerflow/domain';
import { SECOND_FACTOR_TEXTS } from '../../components/secondFactorTexts';

/** Texts of the sign-in screens, as spec sections 1, 2 and 5 write them. */
export const AUTH_TEXTS = {
  ...SECOND_FACTOR_TEXTS,
  productName: 'AlignerFlow',
  loginSubtitle: 'Dental Lab Workflow Portal',
  splashSubtitle: 'Dental Lab Workflow',
  username: 'Username',
  password: 'Password',
  rememberMe: 'Remember Me',
  rememberMeHint: 'Keep me logged in across browser sessions',
  login: 'Login',
  loggingIn: 'Logging in...',
  invalidLogin: USER_TEXTS.invalidLogin,
  demoHint: 'Demo users: admin, rep, designer, tech, dr.lee, dr.patel — password: demo',

  // Passkey and the second step of sign-in
  or: 'or',
  signInWithPasskey: 'Sign in with a passkey',
  verify: 'Verify',
  verifying: 'Verifying...',
  useAuthenticator: 'Use the authenticator app',
  useRecoveryCode: 'Use a recovery code',
  backToSignIn: 'Back to sign-in',
  signInAgain: ACCOUNT_TEXTS.signInAgain,
  // Sign-in, second step
  secondStepTitle: 'Two-step sign-in',
  recoveryHint: 'Enter one of your recovery codes.',
  secondStepHint: 'Enter the code from your authenticator app.',
  recoveryCodeLabel: 'Recovery code',
} as const;
