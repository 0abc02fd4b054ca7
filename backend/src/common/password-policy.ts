import { ACCOUNT_TEXTS, checkPasswordFor } from '@alignerflow/domain';

/**
 * The bundled word lists a new password must not be: zxcvbn's frequency lists (passwords seen in
 * breaches, diceware words, the most common English words and Wikipedia terms), lower-cased.
 * Decompressed on the first new password, not at start: most processes never set one.
 */
let commonWords: Set<string> | undefined;

export function commonPasswordList(): Set<string> {
  if (!commonWords) {
    // Required here, not imported, so that the lists are decompressed only when first needed.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    const english = require('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const lists = [
      common.dictionary['passwords-common'],
      common.dictionary['diceware-common'],
      english.dictionary['commonWords-en'],
      english.dictionary['wikipedia-en'],
    ];
    commonWords = new Set(lists.flatMap((list) => list.map((word) => word.toLowerCase())));
  }
  return commonWords;
}

/** Digits and symbols people pad a word with to pass a length or character rule. */
const PADDING = /^[\d\W_]+|[\d\W_]+$/g;
/** A password of so few different characters ("aaaaaaaaaaaa", "121212121212") is a pattern. */
const MIN_DISTINCT_CHARACTERS = 5;

/** Whether the password is a listed one, perhaps padded with digits or symbols or spaced out. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (new Set(lower).size < MIN_DISTINCT_CHARACTERS) return true;
  const core = lower.replace(PADDING, '');
  const candidates = [lower, core, core.replace(/[\s._-]+/g, '')].filter((word) => word.length >= 3);
  const list = commonPasswordList();
  return candidates.some((word) => list.has(word));
}

/** Every rule for a new password of `username`: the error text, or null when it may be set. */
export function newPasswordProblem(username: string, password: string): string | null {
  return (
    checkPasswordFor(username, password) ??
    (isCommonPassword(password) ? ACCOUNT_TEXTS.passwordTooEasy : null)
  );
}
