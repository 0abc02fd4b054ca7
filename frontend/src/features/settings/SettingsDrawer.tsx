import { useState, type ReactNode } from 'react';
import { can, type Role, type User } from '@alignerflow/domain';
import { Dialog } from '../../components/Dialog';
import { Icon, type IconName } from '../../components/Icon';
import { RetentionSettings } from './RetentionSettings';
import { AccountSettings } from './AccountSettings';
import { BackupRestore } from './BackupRestore';
import { NotificationSettings } from './NotificationSettings';
import { SETTINGS_TEXTS, type SettingsSection } from './texts';
import { UserManagement } from './UserManagement';

const MANAGER_SECTIONS: { key: SettingsSection; icon: IconName }[] = [
  { key: 'users', icon: 'users' },
  { key: 'backup', icon: 'database' },
  { key: 'notifications', icon: 'bell' },
  { key: 'access', icon: 'shield' },
];
const ACCOUNT_SECTION: { key: SettingsSection; icon: IconName } = { key: 'account', icon: 'users' };

interface SettingsDrawerProps {
  role: Role;
  /** The signed-in user: with it the panel has My Account (the only section for other roles). */
  user?: User;
  initialSection?: SettingsSection;
  onClose: () => void;
  /** After signing out everywhere. */
  onSignedOut?: () => void;
  /** What other features show here, put together by the app: the access log, two-step sign-in. */
  parts?: SettingsParts;
}

export interface SettingsParts {
  accessLog?: ReactNode;
  accountSecurity?: (username: string) => ReactNode;
}

/**
 * The settings side panel: a Manager's User Management, Backup & Restore and Notifications, and
 * everybody's My Account.
 */
export function SettingsDrawer({
  role,
  user,
  initialSection,
  onClose,
  onSignedOut = () => undefined,
  parts = {},
}: SettingsDrawerProps) {
  const sections = [
    ...(can(role, 'manageUsers') ? MANAGER_SECTIONS : []),
    ...(user ? [ACCOUNT_SECTION] : []),
  ];
  const [section, setSection] = useState<SettingsSection>(initialSection ?? sections[0]?.key ?? 'account');
  return (
    <Dialog title={SETTINGS_TEXTS.title} onClose={onClose} variant="drawer">
      <nav className="settings-nav" aria-label={SETTINGS_TEXTS.title}>
        <button type="button" className="settings-nav__item" onClick={onClose}>
          <Icon name="home" />
          {SETTINGS_TEXTS.summary}
        </button>
        {sections.map(({ key, icon }) => (
          <button
            key={key}
            type="button"
            className={`settings-nav__item${section === key ? ' is-active' : ''}`}
            aria-current={section === key ? 'page' : undefined}
            onClick={() => setSection(key)}
          >
            <Icon name={icon} />
            {SETTINGS_TEXTS.sections[key]}
          </button>
        ))}
      </nav>
      <section aria-labelledby="settings-section-title">
        <h2 id="settings-section-title" className="settings-heading">
          {SETTINGS_TEXTS.sections[section]}
        </h2>
        {section === 'users' ? <UserManagement /> : null}
        {section === 'backup' ? <BackupRestore role={role} /> : null}
        {section === 'backup' ? <RetentionSettings /> : null}
        {section === 'notifications' ? <NotificationSettings /> : null}
        {section === 'access' ? parts.accessLog : null}
        {section === 'account' && user ? (
          <AccountSettings
            user={user}
            onSignedOut={onSignedOut}
            security={parts.accountSecurity?.(user.username)}
          />
        ) : null}
      </section>
      <div className="dialog__footer dialog__footer--drawer">
        <button type="button" className="button button--ghost" onClick={onClose}>
          {SETTINGS_TEXTS.close}
        </button>
      </div>
    </Dialog>
  );
}
