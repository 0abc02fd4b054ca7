import { useId, useState, type FormEvent } from 'react';
import type { LoginAnswer, MfaChallengeAnswer } from '@alignerflow/domain';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../api/errorMessage';
import { Icon } from '../../components/Icon';
import { accountApi } from '../../api/accountSecurityApi';
import { CodeField } from '../../components/CodeField';
import { passkeyCancelled, signWithPasskey } from '../../api/webauthn';
import { AUTH_TEXTS } from './texts';

interface SecondStepProps {
  challenge: MfaChallengeAnswer;
  onSignedIn: (answer: LoginAnswer) => void;
  /** Back to the username and password ("Sign in again.", or the user's choice). */
  onRestart: (message?: string) => void;
}

/** The second step of a sign-in: an authenticator code, a recovery code or a passkey. */
export function SecondStep({ challenge, onSignedIn, onRestart }: SecondStepProps) {
  const { mfaToken, methods } = challenge;
  const [mode, setMode] = useState<'totp' | 'recovery'>(methods.includes('totp') ? 'totp' : 'recovery');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const canCode = methods.includes('totp') || methods.includes('recovery');

  function failed(failure: unknown): void {
    const message = errorMessage(failure);
    if (failure instanceof ApiError && message === AUTH_TEXTS.signInAgain) {
      onRestart(message);
      return;
    }
    setError(message);
    setBusy(false);
  }

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    const entered = code.trim();
    if (mode === 'totp' && !/^\d{6}$/.test(entered)) {
      setError(AUTH_TEXTS.codeFormat);
      return;
    }
    if (!entered) return;
    setBusy(true);
    setError(null);
    try {
      onSignedIn(
        await accountApi.secondStep(
          mode === 'totp' ? { mfaToken, code: entered } : { mfaToken, recoveryCode: entered },
        ),
      );
    } catch (failure) {
      setCode('');
      failed(failure);
    }
  }

  async function withPasskey(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      const credential = await signWithPasskey(await accountApi.passkeyLoginOptions({ mfaToken }));
      onSignedIn(await accountApi.secondStep({ mfaToken, credential }));
    } catch (failure) {
      if (passkeyCancelled(failure)) {
        setError(AUTH_TEXTS.passkeySignInCancelled);
        setBusy(false);
      } else failed(failure);
    }
  }

  return (
    <form className="login__card" onSubmit={submit} noValidate aria-labelledby="second-step-title">
      <div className="login__brand" aria-hidden="true">
        <Icon name="shield" size={36} />
      </div>
      <h1 className="login__title" id="second-step-title">
        {AUTH_TEXTS.secondStepTitle}
      </h1>
      {canCode ? (
        <>
          <p className="login__subtitle">
            {mode === 'totp' ? AUTH_TEXTS.secondStepHint : AUTH_TEXTS.recoveryHint}
          </p>
          <CodeField
            key={mode}
            kind={mode}
            label={mode === 'totp' ? AUTH_TEXTS.codeLabel : AUTH_TEXTS.recoveryCodeLabel}
            value={code}
            onChange={setCode}
            errorId={error ? errorId : undefined}
            autoFocus
          />
        </>
      ) : null}
      {error ? (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {canCode ? (
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? AUTH_TEXTS.verifying : AUTH_TEXTS.verify}
        </button>
      ) : null}
      {methods.includes('recovery') && methods.includes('totp') ? (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setError(null);
            setCode('');
            setMode(mode === 'totp' ? 'recovery' : 'totp');
          }}
        >
          {mode === 'totp' ? AUTH_TEXTS.useRecoveryCode : AUTH_TEXTS.useAuthenticator}
        </button>
      ) : null}
      {methods.includes('passkey') ? (
        <button
          type="button"
          className="button button--ghost button--block"
          onClick={() => void withPasskey()}
          disabled={busy}
        >
          <Icon name="key" />
          {AUTH_TEXTS.usePasskey}
        </button>
      ) : null}
      <button type="button" className="link-button" onClick={() => onRestart()}>
        {AUTH_TEXTS.backToSignIn}
      </button>
    </form>
  );
}
