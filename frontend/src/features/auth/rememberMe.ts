/** Local storage of spec section 9: rememberMeEnabled ('true' | 'false') and the remembered username. */
export const REMEMBER_ME_KEY = 'rememberMeEnabled';
export const REMEMBERED_USERNAME_KEY = 'rememberedUsername';

export function readRememberMe(): { enabled: boolean; username: string } {
  return {
    enabled: localStorage.getItem(REMEMBER_ME_KEY) === 'true',
    username: localStorage.getItem(REMEMBERED_USERNAME_KEY) ?? '',
  };
}

/** On sign-in: keep the choice, and the username when remember-me is on. */
export function rememberSignIn(enabled: boolean, username: string): void {
  localStorage.setItem(REMEMBER_ME_KEY, enabled ? 'true' : 'false');
  if (enabled) localStorage.setItem(REMEMBERED_USERNAME_KEY, username);
  else localStorage.removeItem(REMEMBERED_USERNAME_KEY);
}

/** On logout the remembered username is cleared. */
export function forgetSignIn(): void {
  localStorage.removeItem(REMEMBERED_USERNAME_KEY);
}
