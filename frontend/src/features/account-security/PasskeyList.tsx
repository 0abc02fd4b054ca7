import { useState, type FormEvent } from 'react';
import type { Passkey } from '@alignerflow/domain';
import { errorMessage } from '../../api/errorMessage';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/toastStore';
import { accountApi } from '../../api/accountSecurityApi';
import { createPasskey, passkeyCancelled } from '../../api/webauthn';
import { SECURITY_TEXTS } from './texts';

interface PasskeyListProps {
  passkeys: Passkey[];
  /** After a passkey was added or removed. */
  onChanged: () => void;
}

/** The user's passkeys, with Add (the browser creates one) and Remove. */
export function PasskeyList({ passkeys, onChanged }: PasskeyListProps) {
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState<string>(SECURITY_TEXTS.passkeyNameDefault);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function add(event: FormEvent): Promise<void> {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const credential = await createPasskey(await accountApi.passkeyRegistrationOptions());
      await accountApi.addPasskey(credential, name.trim() || SECURITY_TEXTS.passkeyNameDefault);
      toast(SECURITY_TEXTS.passkeyAdded);
      setAdding(false);
      onChanged();
    } catch (failure) {
      setError(passkeyCancelled(failure) ? SECURITY_TEXTS.passkeyCancelled : errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  async function remove(passkey: Passkey): Promise<void> {
    if (!window.confirm(SECURITY_TEXTS.confirmRemovePasskey(passkey.name))) return;
    setError(null);
    try {
      await accountApi.removePasskey(passkey.id);
      toast(SECURITY_TEXTS.passkeyRemoved);
      onChanged();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <div className="security-method">
      {passkeys.length > 0 ? (
        <ul className="security-list" aria-label={SECURITY_TEXTS.passkeys}>
          {passkeys.map((passkey) => (
            <li key={passkey.id}>
              <span>
                <strong>{passkey.name}</strong>
                <span className="muted small"> {SECURITY_TEXTS.addedOn(formatDate(passkey.createdAt))}</span>
              </span>
              <button
                type="button"
                className="icon-button icon-button--danger"
                onClick={() => void remove(passkey)}
                aria-label={SECURITY_TEXTS.removePasskey(passkey.name)}
                title={SECURITY_TEXTS.removePasskey(passkey.name)}
              >
                <Icon name="trash" />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">{SECURITY_TEXTS.noPasskeys}</p>
      )}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {adding ? (
        <form className="security-inline-form" onSubmit={add} noValidate>
          <label className="field">
            <span className="field__label">{SECURITY_TEXTS.passkeyName}</span>
            <input
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={100}
              autoComplete="off"
              autoFocus
            />
          </label>
          <div className="security-actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              <Icon name="key" />
              {SECURITY_TEXTS.savePasskey}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setAdding(false)}>
              {SECURITY_TEXTS.cancel}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="button button--ghost" onClick={() => setAdding(true)}>
          <Icon name="plus" />
          {SECURITY_TEXTS.addPasskey}
        </button>
      )}
    </div>
  );
}
