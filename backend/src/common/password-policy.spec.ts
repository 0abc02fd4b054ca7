import { commonPasswordList, isCommonPassword, newPasswordProblem } from './password-policy';

const TOO_EASY = 'This password is too easy to guess. Choose another.';

describe('the new-password rule (api.md Accounts)', () => {
  it('bundles a list of at least 100,000 common passwords and words', () => {
    const list = commonPasswordList();
    expect(list.size).toBeGreaterThanOrEqual(100_000);
    for (const known of ['password', '123456', 'qwerty', 'iloveyou', 'trustno1'])
      expect(list.has(known)).toBe(true);
    // Loaded once: the same set on every call.
    expect(commonPasswordList()).toBe(list);
  });

  it.each([
    ['a listed password of 12 characters', 'qwertyuiop12'],
    ['a listed password in capitals', 'QWERTYUIOP12'],
    ['a listed word padded with digits and symbols', 'password1234!'],
    ['a listed word padded in front', '2024!!sunshine'],
    ['a listed phrase spaced out', 'i-love-you-2024'],
    ['one character over and over', 'aaaaaaaaaaaaaaa'],
    ['two characters taking turns', '121212121212'],
  ])('refuses %s', (_, password) => {
    expect(isCommonPassword(password)).toBe(true);
    expect(newPasswordProblem('someone', password)).toBe(TOO_EASY);
  });

  it('refuses a password holding the username in any letter case', () => {
    expect(newPasswordProblem('Nina', 'my-NINA-river-77')).toBe(TOO_EASY);
    expect(newPasswordProblem('dr.lee', 'x-Dr.Lee-Quartz-9')).toBe(TOO_EASY);
    expect(newPasswordProblem('other', 'my-NINA-river-77')).toBeNull();
  });

  it('judges the length first, then accepts passwords of no list', () => {
    expect(newPasswordProblem('someone', 'password')).toBe('Password must be at least 12 characters.');
    for (const password of ['Quartz-Lantern-42', 'p4ss word 7 river', 'correct horse battery staple'])
      expect(newPasswordProblem('someone', password)).toBeNull();
  });
});
