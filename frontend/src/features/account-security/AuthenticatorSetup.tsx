import { useEffect, useId, useState, type FormEvent } from 'react';
import type { TotpSetupAnswer } from '@alignerflow/domain';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../api/errorMessage';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/toastStore';
import { qrDataUrlOfText } from '../../components/qrImage';
import { accountApi } from '../../api/accountSecurityApi';
import { CodeField } from '../../components/CodeField';
import { RecoveryCodes } from './RecoveryCodes';
import { SECURITY_TEXTS } from './texts';

interface AuthenticatorSetupProps {
  username: string;
  /** Whether an authenticator is active now. */
  active: boolean;
  /** After the authenticator was turned on or removed. */
  onChanged: () => void;
}

type Step =
  | { kind: 'idle' }
  | { kind: 'enrolling'; setup: TotpSetupAnswer; qr: string | null }
  | { kind: 'codes'; codes: string[] };

/** Adding (QR code, key, first code, recovery codes) and removing the authenticator app. */
export function AuthenticatorSetup({ username, active, onChanged }: AuthenticatorSetupProps) {
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const secretId = useId();

  const enrolling = step.kind === 'enrolling' ? step.setup : null;
  useEffect(() => {
    if (!enrolling) return;
    let current = true;
    qrDataUrlOfText(enrolling.otpauthUrl, 240)
      .then((qr) => current && setStep({ kind: 'enrolling', setup: enrolling, qr }))
      .catch((failure) => console.warn('QR code of the authenticator failed', failure));
    return () => {
      current = false;
    };
  }, [enrolling]);

  async function start(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      setCode('');
      setStep({ kind: 'enrolling', setup: await accountApi.startTotp(), qr: null });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setError(SECURITY_TEXTS.codeFormat);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { recoveryCodes } = await accountApi.confirmTotp(code);
      setStep({ kind: 'codes', codes: recoveryCodes });
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status < 500 ? failure.message : errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  async function remove(): Promise<void> {
    if (!window.confirm(SECURITY_TEXTS.confirmRemoveAuthenticator)) return;
    setError(null);
    try {
      await accountApi.removeTotp();
      toast(SECURITY_TEXTS.authenticatorRemoved);
      onChanged();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  const errorLine = error ? (
    <p id={errorId} className="form-error" role="alert">
      {error}
    </p>
  ) : null;

  if (step.kind === 'codes')
    return (
      <RecoveryCodes
        username={username}
        codes={step.codes}
        onDone={() => {
          setStep({ kind: 'idle' });
          onChanged();
        }}
      />
    );

  if (step.kind === 'enrolling')
    return (
      <form className="security-enrol form" onSubmit={confirm} noValidate>
        <p className="small">{SECURITY_TEXTS.scanQr}</p>
        <div className="security-enrol__qr">
          {step.qr ? (
            <img src={step.qr} alt={SECURITY_TEXTS.qrAlt} width={200} height={200} />
          ) : (
            <span className="security-enrol__qr-placeholder" aria-hidden="true" />
          )}
        </div>
        <p className="field">
          <span className="field__label" id={secretId}>
            {SECURITY_TEXTS.secretLabel}
          </span>
          <code className="security-secret" aria-labelledby={secretId} data-testid="totp-secret">
            {step.setup.secret}
          </code>
        </p>
        <CodeField
          label={SECURITY_TEXTS.codeLabel}
          hint={SECURITY_TEXTS.codeHint}
          value={code}
          onChange={setCode}
          errorId={error ? errorId : undefined}
          autoFocus
        />
        {errorLine}
        <div className="security-actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {SECURITY_TEXTS.confirmAuthenticator}
          </button>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              setError(null);
              setStep({ kind: 'idle' });
            }}
          >
            {SECURITY_TEXTS.cancel}
          </button>
        </div>
      </form>
    );

  return (
    <div className="security-method">
      <p className="small">{active ? SECURITY_TEXTS.authenticatorOn : SECURITY_TEXTS.authenticatorOff}</p>
      {errorLine}
      {active ? (
        <button type="button" className="button button--ghost" onClick={() => void remove()}>
          <Icon name="trash" />
          {SECURITY_TEXTS.removeAuthenticator}
        </button>
      ) : (
        <button type="button" className="button button--primary" onClick={() => void start()} disabled={busy}>
          <Icon name="shield" />
          {SECURITY_TEXTS.addAuthenticator}
        </button>
      )}
    </div>
  );
}
