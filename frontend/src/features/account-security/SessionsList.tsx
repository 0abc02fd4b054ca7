import { useCallback, useEffect, useState } from 'react';
import type { SessionInfo } from '@alignerflow/domain';
import { errorMessage } from '../../api/errorMessage';
import { formatDateTime } from '../../components/formatDateTime';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/toastStore';
import { accountApi } from '../../api/accountSecurityApi';
import { describeBrowser } from './describeBrowser';
import { SECURITY_TEXTS } from './texts';

/** The caller's signed-in devices, this one marked, each other one with Sign out. */
export function SessionsList() {
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setSessions(await accountApi.sessions());
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  async function signOut(session: SessionInfo, browser: string): Promise<void> {
    if (!window.confirm(SECURITY_TEXTS.confirmSignOutDevice(browser))) return;
    setError(null);
    try {
      await accountApi.endSession(session.id);
      toast(SECURITY_TEXTS.deviceSignedOut, browser);
      await reload();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  // The current device first, then the most recently seen.
  const ordered = [...(sessions ?? [])].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt),
  );

  return (
    <section className="card security" aria-labelledby="sessions-title">
      <h3 id="sessions-title">{SECURITY_TEXTS.sessions}</h3>
      <p className="muted small">{SECURITY_TEXTS.sessionsHint}</p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {sessions && sessions.length === 0 ? <p className="muted">{SECURITY_TEXTS.noSessions}</p> : null}
      <ul className="security-list" aria-labelledby="sessions-title">
        {ordered.map((session) => {
          const browser = describeBrowser(session.userAgent) ?? SECURITY_TEXTS.unknownBrowser;
          return (
            <li key={session.id}>
              <span className="security-list__text">
                <strong>{browser}</strong>
                {session.current ? (
                  <span className="badge security-badge">{SECURITY_TEXTS.thisDevice}</span>
                ) : null}
                <span className="muted small security-list__detail">
                  {session.address ?? SECURITY_TEXTS.unknownAddress} ·{' '}
                  {SECURITY_TEXTS.lastSeen(formatDateTime(session.lastSeenAt))}
                  {session.rememberMe ? ` · ${SECURITY_TEXTS.rememberMe}` : ''}
                </span>
              </span>
              {session.current ? null : (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => void signOut(session, browser)}
                  aria-label={SECURITY_TEXTS.signOutDeviceLabel(`${browser}, ${session.address ?? ''}`)}
                >
                  <Icon name="logout" />
                  {SECURITY_TEXTS.signOutDevice}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
