import { useState } from 'react';
import { can, type User } from '@alignerflow/domain';
import { Icon } from '../components/Icon';
import { EnableNotificationsButton } from '../features/pwa/EnableNotificationsButton';
import { InstallButton } from '../features/pwa/InstallButton';
import { APP_TEXTS } from './texts';
import { MATERIALS_TEXTS } from '../features/materials/texts';
import type { Theme } from './useTheme';

interface HeaderProps {
  user: User;
  caseSelected: boolean;
  theme: Theme;
  onToggleTheme: () => void;
  onHome: () => void;
  onEditCase: () => void;
  onNewCase: () => void;
  /** Managers: open the Reports screen. */
  onReports?: () => void;
  /** Lab staff: open the Materials screen. */
  onMaterials?: () => void;
  /** Managers, Representatives (Billing) and Doctors (Invoices): the billing screen's label and opener. */
  billing?: { label: string; open: () => void };
  onLogout: () => void;
  /** My Account: password change, sign out everywhere. */
  onOpenAccount: () => void;
}

/** Sticky header; below 768 px its actions move into a collapsible menu with a 'Role:' line. */
export function Header({
  user,
  caseSelected,
  theme,
  onToggleTheme,
  onHome,
  onEditCase,
  onNewCase,
  onReports,
  onMaterials,
  billing,
  onLogout,
  onOpenAccount,
}: HeaderProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const showEdit = caseSelected && can(user.role, 'editCase');
  // Doctors create cases from their own dashboard (spec section 2).
  const showNew = can(user.role, 'createCase') && user.role !== 'Doctor';
  const themeLabel = theme === 'dark' ? APP_TEXTS.lightTheme : APP_TEXTS.darkTheme;
  const run = (action: () => void) => () => {
    setMenuOpen(false);
    action();
  };

  return (
    <header className="header">
      <div className="header__bar">
        {/* The name starts with the visible product name, so speech users can say what they see. */}
        <button
          type="button"
          className="brand"
          onClick={run(onHome)}
          aria-label={`${APP_TEXTS.productName}: ${APP_TEXTS.toDashboard}`}
        >
          <span className="brand__mark" aria-hidden="true">
            <Icon name="tooth" size={20} />
          </span>
          <span className="brand__name">{APP_TEXTS.productName}</span>
        </button>

        <nav className="header__actions" aria-label={APP_TEXTS.mainNavigation}>
          {showEdit ? (
            <button type="button" className="button button--ghost" onClick={onEditCase}>
              <Icon name="edit" />
              {APP_TEXTS.editCase}
            </button>
          ) : null}
          {showNew ? (
            <button type="button" className="button button--primary" onClick={onNewCase}>
              <Icon name="plus" />
              {APP_TEXTS.newCase}
            </button>
          ) : null}
          {onReports ? (
            <button type="button" className="button button--ghost" onClick={onReports}>
              <Icon name="chart" />
              {APP_TEXTS.reports}
            </button>
          ) : null}
          {onMaterials ? (
            <button type="button" className="button button--ghost" onClick={onMaterials}>
              <Icon name="database" />
              {MATERIALS_TEXTS.screenTitle}
            </button>
          ) : null}
          {billing ? (
            <button type="button" className="button button--ghost" onClick={billing.open}>
              <Icon name="folder" />
              {billing.label}
            </button>
          ) : null}
          <InstallButton className="button button--ghost" />
          <EnableNotificationsButton className="icon-button" username={user.username} iconOnly />
          <span className="header__role">
            <span className="muted">{APP_TEXTS.loggedInAs}</span> <strong>{user.role}</strong>
          </span>
          <button
            type="button"
            className="icon-button"
            onClick={onToggleTheme}
            aria-label={themeLabel}
            title={themeLabel}
          >
            <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
          </button>
          <button type="button" className="button button--ghost" onClick={onOpenAccount}>
            <Icon name="users" />
            {APP_TEXTS.myAccount}
          </button>
          <button type="button" className="button button--ghost" onClick={onLogout}>
            <Icon name="logout" />
            {APP_TEXTS.logout}
          </button>
        </nav>

        <button
          type="button"
          className="icon-button header__menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="header-menu"
          aria-label={APP_TEXTS.menu}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Icon name={menuOpen ? 'close' : 'menu'} />
        </button>
      </div>

      <div id="header-menu" className="header__menu" hidden={!menuOpen}>
        <p className="header__menu-role">
          {APP_TEXTS.role} <strong>{user.role}</strong>
        </p>
        {showEdit ? (
          <button type="button" className="menu-item" onClick={run(onEditCase)}>
            <Icon name="edit" />
            {APP_TEXTS.editCase}
          </button>
        ) : null}
        {showNew ? (
          <button type="button" className="menu-item" onClick={run(onNewCase)}>
            <Icon name="plus" />
            {APP_TEXTS.newCase}
          </button>
        ) : null}
        {onReports ? (
          <button type="button" className="menu-item" onClick={run(onReports)}>
            <Icon name="chart" />
            {APP_TEXTS.reports}
          </button>
        ) : null}
        {onMaterials ? (
          <button type="button" className="menu-item" onClick={run(onMaterials)}>
            <Icon name="database" />
            {MATERIALS_TEXTS.screenTitle}
          </button>
        ) : null}
        {billing ? (
          <button type="button" className="menu-item" onClick={run(billing.open)}>
            <Icon name="folder" />
            {billing.label}
          </button>
        ) : null}
        <InstallButton className="menu-item" />
        <EnableNotificationsButton className="menu-item" username={user.username} />
        <button type="button" className="menu-item" onClick={run(onToggleTheme)}>
          <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
          {themeLabel}
        </button>
        <button type="button" className="menu-item" onClick={run(onOpenAccount)}>
          <Icon name="users" />
          {APP_TEXTS.myAccount}
        </button>
        <button type="button" className="menu-item" onClick={run(onLogout)}>
          <Icon name="logout" />
          {APP_TEXTS.logout}
        </button>
      </div>
    </header>
  );
}
