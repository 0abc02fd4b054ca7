import { useEffect, useState, type FormEvent } from 'react';
import { sameUsername } from '@alignerflow/domain';
import { api } from '../../api/client';
import { cache, useCache } from '../../api/cache';
import { loadUsers } from '../../api/queries';
import { Icon } from '../../components/Icon';
import { SETTINGS_TEXTS } from './texts';
import { UserChannels } from './UserChannels';
import { UserPicker } from './UserPicker';
import { errorMessage } from '../../api/errorMessage';
import { Feedback, type Message } from './Feedback';

export function NotificationSettings() {
  const cachedUsers = useCache((state) => state.users);
  const [usersFailed, setUsersFailed] = useState(false);
  const users = usersFailed ? null : (cachedUsers ?? []);

  const [testMessage, setTestMessage] = useState<Message>(null);
  const [target, setTarget] = useState('');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [targetMessage, setTargetMessage] = useState<Message>(null);
  const [soundUser, setSoundUser] = useState('');
  const [soundEnabled, setSoundEnabled] = useState(true);
  const [soundMessage, setSoundMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);

  // All users are loaded when this section opens; on failure the pickers become free text.
  useEffect(() => {
    loadUsers()
      .then((ok) => setUsersFailed(!ok))
      .catch((error) => {
        console.error('Failed to load users', error);
        setUsersFailed(true);
      });
  }, []);

  async function sendTest(): Promise<void> {
    setBusy(true);
    setTestMessage(null);
    try {
      await api.pushTest({ title: SETTINGS_TEXTS.defaultTitle, body: 'This is a test notification.' });
      setTestMessage({ kind: 'success', text: SETTINGS_TEXTS.testSent });
    } catch (error) {
      setTestMessage({ kind: 'error', text: SETTINGS_TEXTS.testFailed(errorMessage(error)) });
    } finally {
      setBusy(false);
    }
  }

  async function sendTargeted(channel: 'webpush' | 'fcm'): Promise<void> {
    setTargetMessage(null);
    const username = target.trim();
    if (!username) return setTargetMessage({ kind: 'error', text: SETTINGS_TEXTS.usernameRequired });
    if (!body.trim()) return setTargetMessage({ kind: 'error', text: SETTINGS_TEXTS.bodyRequired });
    const message = { title: title.trim() || SETTINGS_TEXTS.defaultTitle, body: body.trim() };
    setBusy(true);
    try {
      if (channel === 'webpush') {
        await api.pushSend(username, message);
        setTargetMessage({ kind: 'success', text: SETTINGS_TEXTS.sentWebPush(username) });
      } else {
        await api.fcmSend(username, message);
        setTargetMessage({ kind: 'success', text: SETTINGS_TEXTS.sentFcm(username) });
      }
    } catch (error) {
      console.error('Targeted notification failed', error);
      setTargetMessage({
        kind: 'error',
        text: channel === 'webpush' ? SETTINGS_TEXTS.webPushFailed : SETTINGS_TEXTS.fcmFailed,
      });
    } finally {
      setBusy(false);
    }
  }

  function chooseSoundUser(username: string): void {
    setSoundUser(username);
    const known = cachedUsers?.find((user) => sameUsername(user.username, username));
    if (known) setSoundEnabled(known.activationSoundEnabled !== false);
  }

  async function savePreference(event: FormEvent): Promise<void> {
    event.preventDefault();
    setSoundMessage(null);
    const username = soundUser.trim();
    if (!username) return setSoundMessage({ kind: 'error', text: SETTINGS_TEXTS.selectUser });
    setBusy(true);
    try {
      const updated = await api.updateUser(username, { activationSoundEnabled: soundEnabled });
      const current = cache.get().users;
      if (current && updated) {
        cache.setUsers(
          current.map((user) => (sameUsername(user.username, updated.username) ? updated : user)),
        );
      }
      setSoundMessage({ kind: 'success', text: SETTINGS_TEXTS.preferenceUpdated(username) });
    } catch (error) {
      setSoundMessage({ kind: 'error', text: SETTINGS_TEXTS.preferenceFailed(errorMessage(error)) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="settings-section">
      {usersFailed ? (
        <p className="form-error" role="alert">
          {SETTINGS_TEXTS.usersLoadFailed}
        </p>
      ) : null}

      <UserChannels users={users} />

      <div className="card">
        <h3>{SETTINGS_TEXTS.sendTest}</h3>
        <p className="muted small">{SETTINGS_TEXTS.sendTestHint}</p>
        <button
          type="button"
          className="button button--primary"
          onClick={() => void sendTest()}
          disabled={busy}
        >
          <Icon name="bell" />
          {SETTINGS_TEXTS.sendTest}
        </button>
        <Feedback message={testMessage} />
      </div>

      <form className="card form" onSubmit={(event) => event.preventDefault()} noValidate>
        <h3>{SETTINGS_TEXTS.targeted}</h3>
        <UserPicker label={SETTINGS_TEXTS.username} value={target} onChange={setTarget} users={users} />
        <label className="field">
          <span className="field__label">{SETTINGS_TEXTS.title_}</span>
          <input
            value={title}
            placeholder={SETTINGS_TEXTS.defaultTitle}
            onChange={(event) => setTitle(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">{SETTINGS_TEXTS.message}</span>
          <textarea rows={3} value={body} onChange={(event) => setBody(event.target.value)} />
        </label>
        <Feedback message={targetMessage} />
        <div className="button-row">
          <button
            type="button"
            className="button button--primary"
            onClick={() => void sendTargeted('webpush')}
            disabled={busy}
          >
            {SETTINGS_TEXTS.sendWebPush}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void sendTargeted('fcm')}
            disabled={busy}
          >
            {SETTINGS_TEXTS.sendFcm}
          </button>
        </div>
      </form>

      <form className="card form" onSubmit={savePreference} noValidate>
        <h3>{SETTINGS_TEXTS.soundPreference}</h3>
        <UserPicker
          label={SETTINGS_TEXTS.username}
          value={soundUser}
          onChange={chooseSoundUser}
          users={users}
        />
        <fieldset className="segmented">
          <legend className="field__label">{SETTINGS_TEXTS.sound}</legend>
          <label>
            <input type="radio" name="sound" checked={soundEnabled} onChange={() => setSoundEnabled(true)} />
            {SETTINGS_TEXTS.enabled}
          </label>
          <label>
            <input
              type="radio"
              name="sound"
              checked={!soundEnabled}
              onChange={() => setSoundEnabled(false)}
            />
            {SETTINGS_TEXTS.disabled}
          </label>
        </fieldset>
        <Feedback message={soundMessage} />
        <button type="submit" className="button button--primary" disabled={busy}>
          {SETTINGS_TEXTS.savePreference}
        </button>
      </form>
    </div>
  );
}
