import { useState } from 'react';
import type { SignInAnswer } from '@alignerflow/domain';
import { errorMessage } from '../../api/errorMessage';
import { Icon } from '../../components/Icon';
import { accountApi } from '../../api/accountSecurityApi';
import { passkeyCancelled, signWithPasskey } from '../../api/webauthn';
import { AUTH_TEXTS } from './texts';

interface PasskeySignInButtonProps {
  disabled?: boolean;
  onAnswer: (answer: SignInAnswer) => void;
  onError: (message: string) => void;
  onStart: () => void;
}

/** "Sign in with a passkey": a discoverable passkey signs in without username or password. */
export function PasskeySignInButton({ disabled, onAnswer, onError, onStart }: PasskeySignInButtonProps) {
  const [busy, setBusy] = useState(false);

  async function signIn(): Promise<void> {
    setBusy(true);
    onStart();
    try {
      const credential = await signWithPasskey(await accountApi.passkeyLoginOptions({}));
      onAnswer(await accountApi.passkeyLogin(credential));
    } catch (failure) {
      onError(passkeyCancelled(failure) ? AUTH_TEXTS.passkeySignInCancelled : errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      className="button button--ghost button--block"
      onClick={() => void signIn()}
      disabled={disabled || busy}
    >
      <Icon name="key" />
      {AUTH_TEXTS.signInWithPasskey}
    </button>
  );
}
