import { useEffect, useState, type FormEvent } from 'react';
import {
  ROLES,
  checkNewPassword,
  checkNewUser,
  isAdminUsername,
  sameUsername,
  type Role,
} from '@alignerflow/domain';
import { ApiError, StepUpCancelled, api } from '../../api/client';
import { cache, useCache } from '../../api/cache';
import { loadUsers } from '../../api/queries';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/toastStore';
import { accountApi } from '../../api/accountSecurityApi';
import { SETTINGS_TEXTS } from './texts';

/** The server's text for a refusal it explains, or the re-authentication's cancellation, else `fallback`. */
function failureText(failure: unknown, fallback: string, explained: number[] = [400, 409]): string {
  if (failure instanceof StepUpCancelled) return failure.message;
  return failure instanceof ApiError && explained.includes(failure.status) ? failure.message : fallback;
}

const DEFAULT_ROLE: Role = 'Technician';

export function UserManagement() {
  const users = useCache((state) => state.users);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>(DEFAULT_ROLE);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    loadUsers().catch((failure) => console.warn('Could not load users', failure));
  }, []);

  async function add(event: FormEvent): Promise<void> {
    event.preventDefault();
    setError(null);
    const checked = checkNewUser({ username, password, role });
    if ('rejection' in checked) {
      setError(checked.rejection.message);
      return;
    }
    const name = checked.value.username;
    if (users?.some((user) => sameUsername(user.username, name))) {
      setError(SETTINGS_TEXTS.taken(name));
      return;
    }
    const weak = checkNewPassword(checked.value.password);
    if (weak) {
      setError(weak);
      return;
    }
    setBusy(true);
    try {
      const created = await api.createUser(name, checked.value.password, checked.value.role);
      const current = cache.get().users ?? [];
      cache.setUsers([...current.filter((user) => !sameUsername(user.username, created.username)), created]);
      toast(SETTINGS_TEXTS.userAdded, SETTINGS_TEXTS.userAddedText(created.username, created.role));
      setUsername('');
      setPassword('');
      setRole(DEFAULT_ROLE);
    } catch (failure) {
      setError(failureText(failure, SETTINGS_TEXTS.addFailed));
    } finally {
      setBusy(false);
    }
  }

  async function remove(name: string): Promise<void> {
    if (isAdminUsername(name)) {
      setError(SETTINGS_TEXTS.adminUndeletable);
      return;
    }
    if (!window.confirm(SETTINGS_TEXTS.confirmDeleteUser(name))) return;
    setError(null);
    try {
      await api.deleteUser(name);
      cache.setUsers((cache.get().users ?? []).filter((user) => !sameUsername(user.username, name)));
      toast(SETTINGS_TEXTS.userDeleted, SETTINGS_TEXTS.userDeletedText(name));
    } catch (failure) {
      setError(failureText(failure, SETTINGS_TEXTS.deleteFailed, []));
    }
  }

  async function endSessions(name: string): Promise<void> {
    if (!window.confirm(SETTINGS_TEXTS.confirmEndSessions(name))) return;
    setError(null);
    try {
      await api.endSessions(name);
      toast(SETTINGS_TEXTS.sessionsEnded, SETTINGS_TEXTS.sessionsEndedText(name));
    } catch {
      setError(SETTINGS_TEXTS.endSessionsFailed);
    }
  }

  async function resetTwoStep(name: string): Promise<void> {
    if (!window.confirm(SETTINGS_TEXTS.confirmResetTwoStep(name))) return;
    setError(null);
    try {
      await accountApi.resetTwoStep(name);
      toast(SETTINGS_TEXTS.twoStepReset, SETTINGS_TEXTS.twoStepResetText(name));
    } catch (failure) {
      setError(failureText(failure, SETTINGS_TEXTS.resetFailed, [404]));
    }
  }

  return (
    <div className="settings-section">
      <form className="card form" onSubmit={add} noValidate>
        <h3>{SETTINGS_TEXTS.addUser}</h3>
        <div className="form__grid">
          <label className="field">
            <span className="field__label">{SETTINGS_TEXTS.username}</span>
            <input
              value={username}
              onChange={(event) => setUsername(event.target.value)}
              autoComplete="off"
              autoCapitalize="none"
            />
          </label>
          <label className="field">
            <span className="field__label">{SETTINGS_TEXTS.password}</span>
            <input
              type="password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="new-password"
            />
          </label>
          <label className="field">
            <span className="field__label">{SETTINGS_TEXTS.role}</span>
            <select value={role} onChange={(event) => setRole(event.target.value as Role)}>
              {ROLES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
        </div>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy}>
          <Icon name="plus" />
          {SETTINGS_TEXTS.addUserButton}
        </button>
      </form>

      <div className="card">
        <h3>{SETTINGS_TEXTS.existingUsers}</h3>
        {users && users.length > 0 ? (
          <ul className="user-list">
            {users.map((user) => {
              const admin = isAdminUsername(user.username);
              return (
                <li key={user.username}>
                  <span>
                    <strong>{user.username}</strong>
                    <span className="muted small"> {user.role}</span>
                  </span>
                  <span className="user-list__actions">
                    <button
                      type="button"
                      className="icon-button"
                      onClick={() => void resetTwoStep(user.username)}
                      title={SETTINGS_TEXTS.resetTwoStep(user.username)}
                      aria-label={SETTINGS_TEXTS.resetTwoStep(user.username)}
                    >
                      <Icon name="shield" />
                    </button>
                    <button
                      type="button"
                      className="icon-button"
                      onClick={() => void endSessions(user.username)}
                      title={SETTINGS_TEXTS.endSessions(user.username)}
                      aria-label={SETTINGS_TEXTS.endSessions(user.username)}
                    >
                      <Icon name="logout" />
                    </button>
                    <button
                      type="button"
                      className="icon-button icon-button--danger"
                      onClick={() => void remove(user.username)}
                      disabled={admin}
                      title={
                        admin ? SETTINGS_TEXTS.cannotDeleteAdmin : SETTINGS_TEXTS.deleteUser(user.username)
                      }
                      aria-label={SETTINGS_TEXTS.deleteUser(user.username)}
                    >
                      <Icon name="trash" />
                    </button>
                  </span>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="muted">{SETTINGS_TEXTS.noUsers}</p>
        )}
      </div>
    </div>
  );
}
