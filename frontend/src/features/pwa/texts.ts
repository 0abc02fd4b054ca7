/** Texts of the install, update and push features (spec sections 2 and 9). */
export const PWA_TEXTS = {
  updateAvailable: 'Update available',
  reload: 'Reload',
  installApp: 'Install App',
  enableNotifications: 'Enable notifications',
  installed: 'App installed successfully',
  installUnavailable:
    'The install prompt is not available. AlignerFlow may already be installed, or use your browser menu to install it.',
} as const;

/** 'App installed successfully' stays for 4 s. */
export const INSTALLED_BANNER_MS = 4000;
