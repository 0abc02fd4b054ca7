import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import type { MfaChallengeAnswer, SignInAnswer, User } from '@alignerflow/domain';
import { ApiError, api } from '../../api/client';
import { Icon } from '../../components/Icon';
import { readRememberMe, rememberSignIn } from './rememberMe';
import { AUTH_TEXTS } from './texts';
import { errorMessage } from '../../api/errorMessage';
import { PasskeySignInButton } from './PasskeySignInButton';

// Only users with a second factor see the second step: loaded when first shown, so the sign-in
// screen's JavaScript stays as it was.
const SecondStep = lazy(() => import('./SecondStep').then((module) => ({ default: module.SecondStep })));

interface LoginScreenProps {
  demo: boolean;
  onSignedIn: (user: User) => void;
}

export function LoginScreen({ demo, onSignedIn }: LoginScreenProps) {
  const remembered = readRememberMe();
  const [username, setUsername] = useState(remembered.username);
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(remembered.enabled);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<MfaChallengeAnswer | null>(null);
  const hintId = useId();
  const errorId = useId();
  const filled = username.trim() !== '' && password !== '';

  /** A session, or the second step (the password was right; no session yet). */
  function answered(answer: SignInAnswer): void {
    if ('mfaRequired' in answer) {
      setChallenge(answer);
      setBusy(false);
      return;
    }
    rememberSignIn(rememberMe, answer.user.username);
    onSignedIn(answer.user);
  }

  function restart(message?: string): void {
    setChallenge(null);
    setPassword('');
    setError(message ?? null);
  }

  if (challenge)
    return (
      <main className="login">
        <Suspense fallback={<p className="muted">{AUTH_TEXTS.loggingIn}</p>}>
          <SecondStep challenge={challenge} onSignedIn={answered} onRestart={restart} />
        </Suspense>
      </main>
    );

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (!filled || busy) return;
    setBusy(true);
    setError(null);
    try {
      answered(await api.login(username.trim(), password, rememberMe));
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 401
          ? AUTH_TEXTS.invalidLogin
          : errorMessage(failure),
      );
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <form className="login__card" onSubmit={submit} noValidate>
        <div className="login__brand" aria-hidden="true">
          <Icon name="tooth" size={36} />
        </div>
        <h1 className="login__title">{AUTH_TEXTS.productName}</h1>
        <p className="login__subtitle">{AUTH_TEXTS.loginSubtitle}</p>

        <label className="field">
          <span className="field__label">{AUTH_TEXTS.username}</span>
          <input
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            aria-describedby={error ? errorId : undefined}
            autoFocus
          />
        </label>
        <label className="field">
          <span className="field__label">{AUTH_TEXTS.password}</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-describedby={error ? errorId : undefined}
          />
        </label>

        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={rememberMe}
            onChange={(event) => setRememberMe(event.target.checked)}
            aria-describedby={hintId}
          />
          <span className="switch__track" aria-hidden="true" />
          <span>
            <span className="switch__label">{AUTH_TEXTS.rememberMe}</span>
            <span id={hintId} className="hint">
              {AUTH_TEXTS.rememberMeHint}
            </span>
          </span>
        </label>

        {error ? (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        ) : null}

        <button type="submit" className="button button--primary button--block" disabled={!filled || busy}>
          {busy ? AUTH_TEXTS.loggingIn : AUTH_TEXTS.login}
        </button>
        <p className="login__or" aria-hidden="true">
          {AUTH_TEXTS.or}
        </p>
        <PasskeySignInButton
          disabled={busy}
          onStart={() => setError(null)}
          onAnswer={answered}
          onError={setError}
        />
        {demo ? <p className="login__demo">{AUTH_TEXTS.demoHint}</p> : null}
      </form>
    </main>
  );
}
