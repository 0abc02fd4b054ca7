import { useState } from 'react';
import type { Role } from '@alignerflow/domain';
import { Dialog } from '../../components/Dialog';
import { Icon, type IconName } from '../../components/Icon';
import { BackupRestore } from './BackupRestore';
import { NotificationSettings } from './NotificationSettings';
import { SETTINGS_TEXTS, type SettingsSection } from './texts';
import { UserManagement } from './UserManagement';

const SECTIONS: { key: SettingsSection; icon: IconName }[] = [
  { key: 'users', icon: 'users' },
  { key: 'backup', icon: 'database' },
  { key: 'notifications', icon: 'bell' },
];

interface SettingsDrawerProps {
  role: Role;
  initialSection?: SettingsSection;
  onClose: () => void;
}

/** The managers' settings side panel: User Management, Backup & Restore, Notifications. */
export function SettingsDrawer({ role, initialSection = 'users', onClose }: SettingsDrawerProps) {
  const [section, setSection] = useState<SettingsSection>(initialSection);
  return (
    <Dialog title={SETTINGS_TEXTS.title} onClose={onClose} variant="drawer">
      <nav className="settings-nav" aria-label={SETTINGS_TEXTS.title}>
        <button type="button" className="settings-nav__item" onClick={onClose}>
          <Icon name="home" />
          {SETTINGS_TEXTS.summary}
        </button>
        {SECTIONS.map(({ key, icon }) => (
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
        {section === 'notifications' ? <NotificationSettings /> : null}
      </section>
      <div className="dialog__footer dialog__footer--drawer">
        <button type="button" className="button button--ghost" onClick={onClose}>
          {SETTINGS_TEXTS.close}
        </button>
      </div>
    </Dialog>
  );
}
