/** Local storage of spec section 9: rememberMeEnabled ('true' | 'false') and the remembered username. */
export const REMEMBER_ME_KEY = 'rememberMeEnabled';
export const REMEMBERED_USERNAME_KEY = 'rememberedUsername';
/**
 * Set at sign-out (and when a session ends), removed at sign-in. It holds no patient data; it lets
 * a start-up with no server and no offline copy show the sign-in screen rather than a failure.
 */
export const SIGNED_OUT_KEY = 'signedOut';

export function readRememberMe(): { enabled: boolean; username: string } {
  return {
    enabled: localStorage.getItem(REMEMBER_ME_KEY) === 'true',
    username: localStorage.getItem(REMEMBERED_USERNAME_KEY) ?? '',
  };
}

/** On sign-in: keep the choice, and the username when remember-me is on. */
export function rememberSignIn(enabled: boolean, username: string): void {
  localStorage.setItem(REMEMBER_ME_KEY, enabled ? 'true' : 'false');
  localStorage.removeItem(SIGNED_OUT_KEY);
  if (enabled) localStorage.setItem(REMEMBERED_USERNAME_KEY, username);
  else localStorage.removeItem(REMEMBERED_USERNAME_KEY);
}

/** On logout the remembered username is cleared. */
export function forgetSignIn(): void {
  localStorage.removeItem(REMEMBERED_USERNAME_KEY);
  localStorage.setItem(SIGNED_OUT_KEY, 'true');
}

/** A session restored from the server's cookie is signed in again. */
export function rememberSessionRestored(): void {
  localStorage.removeItem(SIGNED_OUT_KEY);
}

export function wasSignedOut(): boolean {
  return localStorage.getItem(SIGNED_OUT_KEY) === 'true';
}
