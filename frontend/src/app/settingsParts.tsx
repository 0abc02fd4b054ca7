import { AccessLogSettings } from '../features/access-log/AccessLogSettings';
import { AccountSecurity } from '../features/account-security/lazyScreens';
import type { SettingsParts } from '../features/settings/SettingsDrawer';

/** The settings panel's sections that other features own: the access log, two-step sign-in. */
export const SETTINGS_PARTS: SettingsParts = {
  accessLog: <AccessLogSettings />,
  accountSecurity: (username) => <AccountSecurity username={username} />,
};
