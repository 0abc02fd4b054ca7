import { ACCOUNT_TEXTS } from './account-texts.js';
import { checkNewPassword } from './users.js';

/** Shorter usernames ("al") occur inside too many good passwords to be worth refusing. */
const USERNAME_MIN_FOR_CONTAINMENT = 3;

/** Whether the password holds the username, whatever the case: the first thing a guesser tries. */
export function containsUsername(password: string, username: string): boolean {
  const name = username.trim().toLowerCase();
  return name.length >= USERNAME_MIN_FOR_CONTAINMENT && password.toLowerCase().includes(name);
}

/**
 * The rules for a new password of `username` that need no word list: its length, then that it
 * does not hold the username. The server also refuses passwords of its common-password list.
 */
export function checkPasswordFor(username: string, password: string): string | null {
  return (
    checkNewPassword(password) ??
    (containsUsername(password, username) ? ACCOUNT_TEXTS.passwordTooEasy : null)
  );
}
