import { useState } from 'react';
import type { User } from '@alignerflow/domain';
import { channelsOf, saveUser, type ChannelKey } from './notificationChannels';
import { SETTINGS_TEXTS } from './texts';
import { errorMessage } from '../../api/errorMessage';
import { Feedback, type Message } from './Feedback';

const CHANNELS: { key: ChannelKey; label: string }[] = [
  { key: 'push', label: SETTINGS_TEXTS.channelPush },
  { key: 'email', label: SETTINGS_TEXTS.channelEmail },
];

/** Settings → Notifications for a Manager: each user's push and email switches, saved at once. */
export function UserChannels({ users }: { users: User[] | null }) {
  const [saving, setSaving] = useState<string | null>(null);
  const [message, setMessage] = useState<Message>(null);

  async function toggle(user: User, key: ChannelKey, on: boolean): Promise<void> {
    setSaving(`${user.username}:${key}`);
    setMessage(null);
    try {
      await saveUser(user.username, { notify: { [key]: on } });
      setMessage({ kind: 'success', text: SETTINGS_TEXTS.channelSaved(user.username) });
    } catch (error) {
      setMessage({ kind: 'error', text: SETTINGS_TEXTS.channelFailed(errorMessage(error)) });
    } finally {
      setSaving(null);
    }
  }

  return (
    <div className="card">
      <h3>{SETTINGS_TEXTS.channels}</h3>
      <p className="muted small">{SETTINGS_TEXTS.channelsHint}</p>
      {users && users.length ? (
        <table className="channel-table">
          <thead>
            <tr>
              <th scope="col">{SETTINGS_TEXTS.username}</th>
              {CHANNELS.map(({ key, label }) => (
                <th key={key} scope="col" className="channel-table__switch">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {users.map((user) => {
              const channels = channelsOf(user);
              return (
                <tr key={user.username}>
                  <th scope="row">
                    <span className="channel-table__name">{user.username}</span>
                    <span className="channel-table__meta muted small">{user.role}</span>
                    <span className="channel-table__meta channel-table__email muted small">
                      {user.email ?? SETTINGS_TEXTS.noEmail}
                    </span>
                  </th>
                  {CHANNELS.map(({ key, label }) => (
                    <td key={key} className="channel-table__switch">
                      <label className="switch channel-switch">
                        <input
                          type="checkbox"
                          checked={channels[key]}
                          disabled={saving !== null}
                          aria-label={SETTINGS_TEXTS.channelFor(label, user.username)}
                          onChange={(event) => void toggle(user, key, event.target.checked)}
                        />
                        <span className="switch__track" aria-hidden="true" />
                      </label>
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p className="muted">{SETTINGS_TEXTS.noUsers}</p>
      )}
      <Feedback message={message} />
    </div>
  );
}
