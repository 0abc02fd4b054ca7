import { USER_TEXTS } from '@alignerflow/domain';

/** Texts of the sign-in screens, as spec sections 1, 2 and 5 write them. */
export const AUTH_TEXTS = {
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
} as const;
