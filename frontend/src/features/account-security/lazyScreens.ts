import { lazy } from 'react';

// Only users setting up or using a second factor need these screens: loaded when first shown,
// so the sign-in screen's JavaScript stays as it was.
export const AccountSecurity = lazy(() =>
  import('./AccountSecurity').then((module) => ({ default: module.AccountSecurity })),
);
export const EnrolmentScreen = lazy(() =>
  import('./EnrolmentScreen').then((module) => ({ default: module.EnrolmentScreen })),
);
export const ReauthDialog = lazy(() =>
  import('./ReauthDialog').then((module) => ({ default: module.ReauthDialog })),
);
