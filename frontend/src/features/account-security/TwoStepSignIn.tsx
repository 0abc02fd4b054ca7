import { useCallback, useEffect, useRef, useState } from 'react';
import type { MfaStatus, Passkey } from '@alignerflow/domain';
import { api } from '../../api/client';
import { errorMessage } from '../../api/errorMessage';
import { AuthenticatorSetup } from './AuthenticatorSetup';
import { accountApi } from '../../api/accountSecurityApi';
import { PasskeyList } from './PasskeyList';
import { SECURITY_TEXTS } from './texts';

interface TwoStepSignInProps {
  username: string;
  /** After any factor was added or removed, with the caller's new status. */
  onStatus?: (status: MfaStatus) => void;
}

/** Account → Two-step sign-in: the authenticator app and the passkeys. */
export function TwoStepSignIn({ username, onStatus }: TwoStepSignInProps) {
  const [status, setStatus] = useState<MfaStatus | null>(null);
  const [passkeys, setPasskeys] = useState<Passkey[]>([]);
  const [error, setError] = useState<string | null>(null);
  const onStatusRef = useRef(onStatus);
  onStatusRef.current = onStatus;

  const reload = useCallback(async () => {
    try {
      const [me, list] = await Promise.all([api.me(), accountApi.passkeys()]);
      setStatus(me.mfa);
      setPasskeys(list);
      setError(null);
      onStatusRef.current?.(me.mfa);
    } catch (failure) {
      console.warn('Loading the sign-in methods failed', failure);
      setError(`${SECURITY_TEXTS.loadFailed} ${errorMessage(failure)}`);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  return (
    <section className="card security" aria-labelledby="two-step-title">
      <h3 id="two-step-title">{SECURITY_TEXTS.twoStep}</h3>
      <p className="muted small">{SECURITY_TEXTS.twoStepHint}</p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <h4>{SECURITY_TEXTS.authenticator}</h4>
      <AuthenticatorSetup
        username={username}
        active={status?.totp ?? false}
        onChanged={() => void reload()}
      />
      <h4>{SECURITY_TEXTS.passkeys}</h4>
      <p className="muted small">{SECURITY_TEXTS.passkeysHint}</p>
      <PasskeyList passkeys={passkeys} onChanged={() => void reload()} />
    </section>
  );
}
