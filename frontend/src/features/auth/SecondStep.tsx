import { useId, useState, type FormEvent } from 'react';
import type { LoginAnswer, MfaChallengeAnswer } from '@alignerflow/domain';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../api/errorMessage';
import { Icon } from '../../components/Icon';
import { accountApi } from '../account-security/accountSecurityApi';
import { CodeField } from '../account-security/CodeField';
import { SECURITY_TEXTS } from '../account-security/texts';
import { passkeyCancelled, signWithPasskey } from '../account-security/webauthn';

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
    if (failure instanceof ApiError && message === SECURITY_TEXTS.signInAgain) {
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
      setError(SECURITY_TEXTS.codeFormat);
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
        setError(SECURITY_TEXTS.passkeySignInCancelled);
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
        {SECURITY_TEXTS.secondStepTitle}
      </h1>
      {canCode ? (
        <>
          <p className="login__subtitle">
            {mode === 'totp' ? SECURITY_TEXTS.secondStepHint : SECURITY_TEXTS.recoveryHint}
          </p>
          <CodeField
            key={mode}
            kind={mode}
            label={mode === 'totp' ? SECURITY_TEXTS.codeLabel : SECURITY_TEXTS.recoveryCodeLabel}
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
          {busy ? SECURITY_TEXTS.verifying : SECURITY_TEXTS.verify}
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
          {mode === 'totp' ? SECURITY_TEXTS.useRecoveryCode : SECURITY_TEXTS.useAuthenticator}
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
          {SECURITY_TEXTS.usePasskey}
        </button>
      ) : null}
      <button type="button" className="link-button" onClick={() => onRestart()}>
        {SECURITY_TEXTS.backToSignIn}
      </button>
    </form>
  );
}
