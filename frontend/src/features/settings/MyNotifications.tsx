import { useEffect, useState, type FormEvent } from 'react';
import { checkEmail, type User } from '@alignerflow/domain';
import { channelsOf, saveUser, type ChannelKey } from './notificationChannels';
import { SETTINGS_TEXTS } from './texts';
import { errorMessage } from '../../api/errorMessage';
import { Feedback, type Message } from './Feedback';

/** Everyone's own channels: push and email switches and the address emails go to. */
export function MyNotifications({ user }: { user: User }) {
  const [current, setCurrent] = useState<User>(user);
  const [email, setEmail] = useState(user.email ?? '');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const channels = channelsOf(current);

  // A change made elsewhere (a Manager, another tab) arrives as a new user.
  useEffect(() => {
    setCurrent(user);
    setEmail(user.email ?? '');
  }, [user]);

  async function toggle(key: ChannelKey, on: boolean): Promise<void> {
    setBusy(true);
    setMessage(null);
    try {
      setCurrent(await saveUser(current.username, { notify: { [key]: on } }));
    } catch (error) {
      setMessage({ kind: 'error', text: SETTINGS_TEXTS.channelFailed(errorMessage(error)) });
    } finally {
      setBusy(false);
    }
  }

  async function saveEmail(event: FormEvent): Promise<void> {
    event.preventDefault();
    setMessage(null);
    const checked = checkEmail(email.trim());
    if ('error' in checked) return setMessage({ kind: 'error', text: checked.error });
    setBusy(true);
    try {
      setCurrent(await saveUser(current.username, { email: checked.value }));
      setMessage({ kind: 'success', text: SETTINGS_TEXTS.emailSaved });
    } catch (error) {
      setMessage({ kind: 'error', text: SETTINGS_TEXTS.emailFailed(errorMessage(error)) });
    } finally {
      setBusy(false);
    }
  }

  const switches: { key: ChannelKey; label: string; hint: string }[] = [
    { key: 'push', label: SETTINGS_TEXTS.pushSwitch, hint: SETTINGS_TEXTS.pushSwitchHint },
    { key: 'email', label: SETTINGS_TEXTS.emailSwitch, hint: SETTINGS_TEXTS.emailSwitchHint(current.email) },
  ];

  return (
    <form className="card form my-notifications" onSubmit={saveEmail} noValidate>
      <h3>{SETTINGS_TEXTS.myNotifications}</h3>
      <p className="muted small my-notifications__hint">{SETTINGS_TEXTS.myNotificationsHint}</p>
      {switches.map(({ key, label, hint }) => (
        <label key={key} className="switch">
          <input
            type="checkbox"
            checked={channels[key]}
            disabled={busy}
            onChange={(event) => void toggle(key, event.target.checked)}
          />
          <span className="switch__track" aria-hidden="true" />
          <span>
            <span className="switch__label">{label}</span>
            <span className="muted small">{hint}</span>
          </span>
        </label>
      ))}
      <div className="my-notifications__email">
        <label className="field">
          <span className="field__label">{SETTINGS_TEXTS.emailAddress}</span>
          <input
            type="email"
            value={email}
            autoComplete="email"
            onChange={(event) => setEmail(event.target.value)}
          />
        </label>
        <button type="submit" className="button button--secondary" disabled={busy}>
          {SETTINGS_TEXTS.saveEmail}
        </button>
      </div>
      <Feedback message={message} />
    </form>
  );
}
