import { useEffect, useId, useState, type FormEvent } from 'react';
import type { MfaStatus, ReauthBody } from '@alignerflow/domain';
import { api } from '../../api/client';
import { errorMessage } from '../../api/errorMessage';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { accountApi } from '../../api/accountSecurityApi';
import { CodeField } from '../../components/CodeField';
import { passkeyCancelled, signWithPasskey } from '../../api/webauthn';
import { SECURITY_TEXTS } from './texts';

interface ReauthDialogProps {
  /** After `POST /auth/reauth` succeeded. */
  onConfirmed: () => void;
  onCancel: () => void;
}

/** "Confirm it is you": the password, an authenticator code or a passkey, then the call goes on. */
export function ReauthDialog({ onConfirmed, onCancel }: ReauthDialogProps) {
  const [mfa, setMfa] = useState<MfaStatus | null>(null);
  const [mode, setMode] = useState<'password' | 'code'>('password');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();

  useEffect(() => {
    let current = true;
    api
      .me()
      .then((me) => current && setMfa(me.mfa ?? null))
      .catch((failure) => console.warn('Could not read the sign-in methods', failure));
    return () => {
      current = false;
    };
  }, []);

  async function prove(body: ReauthBody): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await accountApi.reauth(body);
      onConfirmed();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }

  function submit(event: FormEvent): void {
    event.preventDefault();
    if (busy) return;
    if (mode === 'password') {
      if (password) void prove({ password });
    } else if (/^\d{6}$/.test(code)) void prove({ code });
    else setError(SECURITY_TEXTS.codeFormat);
  }

  async function withPasskey(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      const credential = await signWithPasskey(await accountApi.reauthOptions());
      await prove({ credential });
    } catch (failure) {
      setError(passkeyCancelled(failure) ? SECURITY_TEXTS.passkeySignInCancelled : errorMessage(failure));
      setBusy(false);
    }
  }

  const describedBy = error ? errorId : undefined;
  return (
    <Dialog title={SECURITY_TEXTS.reauthTitle} onClose={onCancel} size="small">
      <form className="form reauth" onSubmit={submit} noValidate>
        <p>{SECURITY_TEXTS.reauthHint}</p>
        {mode === 'password' ? (
          <label className="field">
            <span className="field__label">{SECURITY_TEXTS.reauthPassword}</span>
            <input
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-describedby={describedBy}
              data-autofocus
            />
          </label>
        ) : (
          <CodeField
            label={SECURITY_TEXTS.codeLabel}
            hint={SECURITY_TEXTS.codeHint}
            value={code}
            onChange={setCode}
            errorId={describedBy}
            autoFocus
          />
        )}
        {error ? (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="security-actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {SECURITY_TEXTS.confirm}
          </button>
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {SECURITY_TEXTS.cancel}
          </button>
        </div>
        {mfa?.totp ? (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setError(null);
              setMode(mode === 'password' ? 'code' : 'password');
            }}
          >
            {mode === 'password' ? SECURITY_TEXTS.reauthWithCode : SECURITY_TEXTS.reauthWithPassword}
          </button>
        ) : null}
        {mfa && mfa.passkeys > 0 ? (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void withPasskey()}
            disabled={busy}
          >
            <Icon name="key" />
            {SECURITY_TEXTS.usePasskey}
          </button>
        ) : null}
      </form>
    </Dialog>
  );
}
