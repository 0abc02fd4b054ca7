import type { User } from '@alignerflow/domain';
import { SETTINGS_TEXTS } from './texts';

interface UserPickerProps {
  label: string;
  value: string;
  onChange: (username: string) => void;
  /** null when the list could not be loaded: the picker becomes a free-text input. */
  users: User[] | null;
}

export function UserPicker({ label, value, onChange, users }: UserPickerProps) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      {users ? (
        <select value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{SETTINGS_TEXTS.chooseUser}</option>
          {users.map((user) => (
            <option key={user.username} value={user.username}>
              {user.username} ({user.role})
            </option>
          ))}
        </select>
      ) : (
        <input
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoCapitalize="none"
          autoComplete="off"
        />
      )}
    </label>
  );
}
