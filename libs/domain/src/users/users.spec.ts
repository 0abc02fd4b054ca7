import { checkEmail, checkNewUser, type NewUserInput } from './users.js';

describe('checkNewUser (spec section 5, Add user)', () => {
  const ok = (username: string, password: string, role: string, email: string | null = null) => ({
    value: { username, password, role, email },
  });
  const invalid = (message: string) => ({ rejection: { kind: 'invalid', message } });

  it.each<[string, NewUserInput, unknown]>([
    [
      'a full form',
      { username: 'tech2', password: 'secret', role: 'Technician' },
      ok('tech2', 'secret', 'Technician'),
    ],
    ['role defaults to Technician', { username: 'newbie', password: 'pw' }, ok('newbie', 'pw', 'Technician')],
    [
      'role null defaults to Technician',
      { username: 'newbie', password: 'pw', role: null },
      ok('newbie', 'pw', 'Technician'),
    ],
    [
      "the role 'admin' is Manager",
      { username: 'boss', password: 'pw', role: 'admin' },
      ok('boss', 'pw', 'Manager'),
    ],
    ['role in any letter case', { username: 'd', password: 'pw', role: 'doctor' }, ok('d', 'pw', 'Doctor')],
    [
      'username trimmed',
      { username: '  dr.who  ', password: 'pw', role: 'Doctor' },
      ok('dr.who', 'pw', 'Doctor'),
    ],
    [
      'password kept exactly as typed',
      { username: 'a', password: ' p w ', role: 'Designer' },
      ok('a', ' p w ', 'Designer'),
    ],
    [
      'email kept',
      { username: 'a', password: 'p', email: 'a@lab.example' },
      ok('a', 'p', 'Technician', 'a@lab.example'),
    ],
    ['empty email is none', { username: 'a', password: 'p', email: '' }, ok('a', 'p', 'Technician', null)],
    ['empty username', { username: '', password: 'pw' }, invalid('Username and password cannot be empty.')],
    [
      'blank username',
      { username: '   ', password: 'pw' },
      invalid('Username and password cannot be empty.'),
    ],
    ['empty password', { username: 'a', password: '' }, invalid('Username and password cannot be empty.')],
    [
      'blank password',
      { username: 'a', password: '  \t ' },
      invalid('Username and password cannot be empty.'),
    ],
    ['both missing', {}, invalid('Username and password cannot be empty.')],
    ['non-text username', { username: 7, password: 'pw' }, invalid('Username and password cannot be empty.')],
    ['unknown role', { username: 'a', password: 'pw', role: 'Boss' }, invalid('Unknown role "Boss".')],
    ['empty role', { username: 'a', password: 'pw', role: '' }, invalid('Unknown role "".')],
    [
      'username too long',
      { username: 'a'.repeat(65), password: 'pw' },
      invalid('Username or password is too long.'),
    ],
    [
      'password too long',
      { username: 'a', password: 'p'.repeat(257) },
      invalid('Username or password is too long.'),
    ],
    [
      'username with a space',
      { username: 'john doe', password: 'pw' },
      invalid('Usernames may use letters, digits, dots, dashes and underscores.'),
    ],
    ['invalid email', { username: 'a', password: 'pw', email: 'nope' }, invalid('Email is not valid.')],
  ])('%s', (_label, input, expected) => {
    expect(checkNewUser(input)).toEqual(expected);
  });
});

describe('checkEmail', () => {
  it.each<[unknown, { value: string | null } | { error: string }]>([
    [undefined, { value: null }],
    [null, { value: null }],
    ['', { value: null }],
    ['  doc@clinic.example  ', { value: 'doc@clinic.example' }],
    ['doc@clinic', { error: 'Email is not valid.' }],
    ['doc clinic@x.y', { error: 'Email is not valid.' }],
    ['   ', { error: 'Email is not valid.' }],
    [42, { error: 'Email must be text.' }],
    [`${'a'.repeat(250)}@x.io`, { error: 'Email must be at most 254 characters.' }],
  ])('checkEmail(%j)', (value, expected) => {
    expect(checkEmail(value)).toEqual(expected);
  });
});
