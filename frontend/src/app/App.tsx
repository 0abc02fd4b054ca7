import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { MfaStatus, User } from '@alignerflow/domain';
import type { ClientConfig } from '@alignerflow/domain';
import { ApiError, api, onEnrolmentRequired } from '../api/client';
import { cache, readOfflineCopy } from '../api/cache';
import { isCopyStillValid } from '../api/offlineCopy';
import { loadAll } from '../api/queries';
import { Toaster } from '../components/Toaster';
import { EnrolmentScreen } from '../features/account-security/lazyScreens';
import { StepUpHost } from '../features/account-security/StepUpHost';
import { LoginScreen } from '../features/auth/LoginScreen';
import { forgetSignIn, rememberSessionRestored, wasSignedOut } from '../features/auth/rememberMe';
import { PwaBanners } from '../features/pwa/PwaBanners';
import { CaseScreenPartsContext } from '../features/case-shared/caseScreenParts';
import { CASE_SCREEN_PARTS } from './caseScreenParts';
import { FatalErrorScreen } from './FatalErrorScreen';
import { LoadingScreen } from './LoadingScreen';
import { Shell } from './Shell';
import { SplashScreen } from './SplashScreen';
import { SPLASH_MS } from './texts';
import { useSessionEnd } from './useSessionEnd';
import { errorMessage } from '../api/errorMessage';

type Session =
  | { state: 'pending' }
  | { state: 'signedOut' }
  | { state: 'loadingData'; user: User }
  | { state: 'signedIn'; user: User }
  /** The role must use two-step sign-in and the user has no second factor yet. */
  | { state: 'enrolling'; user: User }
  | { state: 'failed'; detail: string };

const DEFAULT_CONFIG: ClientConfig = {
  demo: false,
  basePath: import.meta.env.BASE_URL,
  productName: 'AlignerFlow',
};

async function loadData(user: User): Promise<void> {
  try {
    await loadAll(user.role);
  } catch (error) {
    console.error('Loading application data failed', error);
  }
}

/** The server reaches only the account calls until such a user has a second factor. */
function mustEnrol(mfa: MfaStatus | undefined): boolean {
  return !!mfa?.required && !mfa.totp && mfa.passkeys === 0;
}

/**
 * Restores the server session (the cookie; kept across browser restarts when Remember Me was on).
 * If the server cannot be reached, the last synced copy is shown offline while its session would
 * still be valid; after a sign-out, the sign-in screen; otherwise start-up fails.
 */
async function restoreSession(): Promise<Session> {
  try {
    const { user, mfa, expiresAt } = await api.me();
    rememberSessionRestored();
    if (mustEnrol(mfa)) return { state: 'enrolling', user };
    cache.begin(user);
    cache.setSessionEnd(expiresAt);
    await loadData(user);
    return { state: 'signedIn', user };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      cache.clear(); // the session is over: its offline copy goes too
      return { state: 'signedOut' };
    }
    const copy = await readOfflineCopy();
    if (copy && isCopyStillValid(copy)) {
      cache.begin(copy.owner, copy);
      cache.setSessionEnd(copy.expiresAt ?? null);
      cache.setOffline(true);
      return { state: 'signedIn', user: copy.owner };
    }
    if (copy) {
      // Its session is over (or its end unknown): the copy goes, and the sign-in screen shows.
      cache.clear();
      return { state: 'signedOut' };
    }
    // Signed out here before: no data to show, and signing in again is what the user will want.
    if (wasSignedOut()) return { state: 'signedOut' };
    return { state: 'failed', detail: errorMessage(error) };
  }
}

export function App({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const [splashDone, setSplashDone] = useState(false);
  const [session, setSession] = useState<Session>({ state: 'pending' });
  const [config, setConfig] = useState<ClientConfig>(DEFAULT_CONFIG);
  /** A call answered that two-step sign-in must be set up first (possibly before the session was known). */
  const enrolmentRequired = useRef(false);

  useEffect(() => {
    const timer = setTimeout(() => setSplashDone(true), SPLASH_MS);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    let current = true;
    api
      .config()
      .then((answer) => current && setConfig({ ...DEFAULT_CONFIG, ...answer }))
      .catch(() => undefined);
    void restoreSession().then(
      (restored) =>
        current &&
        setSession(
          restored.state === 'signedIn' && enrolmentRequired.current
            ? { state: 'enrolling', user: restored.user }
            : restored,
        ),
    );
    return () => {
      current = false;
    };
  }, []);

  const openApp = useCallback((user: User, expiresAt: string | null = null) => {
    enrolmentRequired.current = false;
    cache.begin(user);
    cache.setSessionEnd(expiresAt);
    setSession({ state: 'loadingData', user });
    // A call refused meanwhile for want of two-step sign-in has switched to the enrolment screen.
    void loadData(user).then(() =>
      setSession((current) => (current.state === 'loadingData' ? { state: 'signedIn', user } : current)),
    );
  }, []);

  const signedIn = useCallback(
    (user: User) => {
      setSession({ state: 'loadingData', user });
      api
        .me()
        .then(({ mfa, expiresAt }) =>
          mustEnrol(mfa) ? setSession({ state: 'enrolling', user }) : openApp(user, expiresAt),
        )
        .catch((error) => {
          console.warn('Reading the sign-in methods failed', error);
          openApp(user);
        });
    },
    [openApp],
  );

  // Any call refused until two-step sign-in is set up shows the enrolment screen.
  useEffect(
    () =>
      onEnrolmentRequired(() => {
        enrolmentRequired.current = true;
        setSession((current) =>
          current.state === 'signedIn' || current.state === 'loadingData'
            ? { state: 'enrolling', user: current.user }
            : current,
        );
      }),
    [],
  );

  const signedOut = useCallback(() => {
    enrolmentRequired.current = false;
    forgetSignIn();
    cache.clear();
    setSession({ state: 'signedOut' });
  }, []);

  useSessionEnd(session.state === 'signedIn', signedOut);

  const logout = useCallback(() => {
    api
      .logout()
      .catch((error) => console.warn('Logout call failed', error))
      .finally(signedOut);
  }, [signedOut]);

  let screen;
  if (!splashDone) screen = <SplashScreen />;
  else if (session.state === 'pending' || session.state === 'loadingData') screen = <LoadingScreen />;
  else if (session.state === 'failed') screen = <FatalErrorScreen detail={session.detail} onRetry={reload} />;
  else if (session.state === 'signedOut') screen = <LoginScreen demo={config.demo} onSignedIn={signedIn} />;
  else if (session.state === 'enrolling')
    screen = (
      <Suspense fallback={<LoadingScreen />}>
        <EnrolmentScreen user={session.user} onEnrolled={() => openApp(session.user)} onSignOut={logout} />
      </Suspense>
    );
  else
    // The case screen's parts from other features (features/case-shared/caseScreenParts.ts).
    screen = (
      <CaseScreenPartsContext.Provider value={CASE_SCREEN_PARTS}>
        <Shell user={session.user} onLogout={logout} onSessionEnded={signedOut} />
      </CaseScreenPartsContext.Provider>
    );

  return (
    <>
      <PwaBanners />
      {screen}
      <StepUpHost />
      <Toaster />
    </>
  );
}
