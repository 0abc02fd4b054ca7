/** Texts of the app shell and start-up screens (spec sections 1 and 2). */
export const APP_TEXTS = {
  productName: 'AlignerFlow',
  splashSubtitle: 'Dental Lab Workflow',
  loading: 'Loading application data...',
  fatal: 'Failed to load application data',
  retry: 'Retry',
  editCase: 'Edit Case',
  newCase: 'New Case',
  loggedInAs: 'Logged in as:',
  role: 'Role:',
  logout: 'Logout',
  myAccount: 'My Account',
  home: 'Home',
  reports: 'Reports',
  loadingScreen: 'Loading…',
  newShort: 'New',
  scan: 'Scan',
  menu: 'Menu',
  toDashboard: 'Go to dashboard',
  darkTheme: 'Switch to dark theme',
  lightTheme: 'Switch to light theme',
  mainNavigation: 'Main navigation',
} as const;

export const SPLASH_MS = 2500;
