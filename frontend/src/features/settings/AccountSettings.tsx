import { Suspense, useState, type FormEvent, type ReactNode } from 'react';
import { checkNewPassword, USER_TEXTS, type User } from '@alignerflow/domain';
import { ApiError, api } from '../../api/client';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/toastStore';
import { MyNotifications } from './MyNotifications';
import { SETTINGS_TEXTS } from './texts';

interface AccountSettingsProps {
  user: User;
  /** After "Sign Out Everywhere": this browser's session has ended too. */
  onSignedOut: () => void;
  /** Two-step sign-in and the signed-in devices (features/account-security, from the app). */
  security?: ReactNode;
}

/**
 * Every signed-in user's own account: notifications, a password change, two-step sign-in, the
 * signed-in devices and signing out on every device.
 */
export function AccountSettings({ user, onSignedOut, security }: AccountSettingsProps) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [signOutError, setSignOutError] = useState<string | null>(null);

  async function change(event: FormEvent): Promise<void> {
    event.preventDefault();
    setError(null);
    // The same rules and texts as the server, in the server's order.
    const problem = !password.trim()
      ? USER_TEXTS.passwordEmpty
      : (checkNewPassword(password) ?? (currentPassword ? null : SETTINGS_TEXTS.currentPasswordRequired));
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    try {
      await api.changeOwnPassword(user.username, currentPassword, password);
      toast(SETTINGS_TEXTS.passwordChanged, SETTINGS_TEXTS.passwordChangedText);
      setCurrentPassword('');
      setPassword('');
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 400
          ? failure.message
          : SETTINGS_TEXTS.changePasswordFailed,
      );
    } finally {
      setBusy(false);
    }
  }

  async function signOutEverywhere(): Promise<void> {
    if (!window.confirm(SETTINGS_TEXTS.confirmSignOutEverywhere)) return;
    setSignOutError(null);
    try {
      await api.logoutEverywhere();
      onSignedOut();
    } catch {
      setSignOutError(SETTINGS_TEXTS.signOutEverywhereFailed);
    }
  }

  return (
    <div className="settings-section">
      <MyNotifications user={user} />

      <form className="card form" onSubmit={change} noValidate>
        <h3>{SETTINGS_TEXTS.changePassword}</h3>
        {/* Lets password managers tie the new password to this account. */}
        <input type="text" name="username" value={user.username} autoComplete="username" readOnly hidden />
        <div className="form__grid">
          <label className="field">
            <span className="field__label">{SETTINGS_TEXTS.currentPassword}</span>
            <input
              type="password"
              value={currentPassword}
              onChange={(event) => setCurrentPassword(event.target.value)}
              autoComplete="current-password"
            />
          </label>
          <label className="field">
            <span className="field__label">{SETTINGS_TEXTS.newPassword}</span>
            <input
              type="password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="new-password"
            />
          </label>
        </div>
        <p className="muted small">{SETTINGS_TEXTS.passwordMinimumHint}</p>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy}>
          {SETTINGS_TEXTS.changePasswordButton}
        </button>
      </form>

      <Suspense fallback={<p className="muted">{SETTINGS_TEXTS.loading}</p>}>{security}</Suspense>

      <div className="card">
        <h3>{SETTINGS_TEXTS.signOutEverywhere}</h3>
        <p className="muted">{SETTINGS_TEXTS.signOutEverywhereHint}</p>
        {signOutError ? (
          <p className="form-error" role="alert">
            {signOutError}
          </p>
        ) : null}
        <button type="button" className="button button--ghost" onClick={() => void signOutEverywhere()}>
          <Icon name="logout" />
          {SETTINGS_TEXTS.signOutEverywhere}
        </button>
      </div>
    </div>
  );
}
