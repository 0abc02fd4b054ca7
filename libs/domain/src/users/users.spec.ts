import type { Actor } from '../permissions/roles.js';
import {
  checkEmail,
  checkNewUser,
  decideUser,
  evolveUser,
  publicUser,
  USER_TEXTS,
  userStreamId,
  type NewUserInput,
  type UserCommand,
  type UserDecision,
  type UserEventData,
  type UserState,
} from './users.js';

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

const userState = (username: string, role: UserState['role'], extra: Partial<UserState> = {}): UserState => ({
  username,
  role,
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
  passwordHash: 'hash',
  deleted: false,
  version: 1,
  ...extra,
});

const manager: Actor = { username: 'admin', role: 'Manager' };
const otherManager: Actor = { username: 'boss', role: 'Manager' };
const tech: Actor = { username: 'tech', role: 'Technician' };
const doctor: Actor = { username: 'dr.lee', role: 'Doctor' };
const newUser = (username: string) => ({
  type: 'CreateUser' as const,
  user: { username, role: 'Technician' as const, email: null, passwordHash: 'h' },
});
const accepted = (...events: UserEventData[]): UserDecision => ({ ok: true, events });
const refused = (kind: string, message: string) => ({ ok: false, rejection: { kind, message } });

describe('decideUser', () => {
  it.each<[string, UserState | null, UserCommand, Actor | null, string, unknown]>([
    // Create
    [
      'a manager creates a user',
      null,
      newUser('tech2'),
      manager,
      'tech2',
      accepted({ type: 'UserCreated', data: newUser('tech2').user }),
    ],
    [
      'the system creates the admin',
      null,
      newUser('admin'),
      null,
      'admin',
      accepted({ type: 'UserCreated', data: newUser('admin').user }),
    ],
    [
      'a name that was deleted can be taken again',
      userState('old', 'Designer', { deleted: true }),
      newUser('old'),
      manager,
      'old',
      accepted({ type: 'UserCreated', data: newUser('old').user }),
    ],
    [
      'duplicate → conflict',
      userState('tech', 'Technician'),
      newUser('tech'),
      manager,
      'tech',
      refused('conflict', 'Username "tech" is already taken.'),
    ],
    [
      'duplicate in another letter case → conflict',
      userState('tech', 'Technician'),
      newUser('TECH'),
      manager,
      'TECH',
      refused('conflict', 'Username "TECH" is already taken.'),
    ],
    [
      'a Technician cannot create',
      null,
      newUser('x'),
      tech,
      'x',
      refused('forbidden', 'Only a manager can manage users.'),
    ],
    [
      'a Doctor cannot create',
      null,
      newUser('x'),
      doctor,
      'x',
      refused('forbidden', 'Only a manager can manage users.'),
    ],
    [
      'a Representative cannot create',
      null,
      newUser('x'),
      { username: 'rep', role: 'Representative' },
      'x',
      refused('forbidden', 'Only a manager can manage users.'),
    ],
    // Delete
    [
      'a manager deletes a user',
      userState('tech', 'Technician'),
      { type: 'DeleteUser' },
      manager,
      'tech',
      accepted({ type: 'UserDeleted', data: {} }),
    ],
    [
      'admin cannot be deleted',
      userState('admin', 'Manager'),
      { type: 'DeleteUser' },
      otherManager,
      'admin',
      refused('invalid', 'The default admin user cannot be deleted.'),
    ],
    [
      'Admin cannot be deleted',
      userState('admin', 'Manager'),
      { type: 'DeleteUser' },
      otherManager,
      'Admin',
      refused('invalid', 'The default admin user cannot be deleted.'),
    ],
    [
      'ADMIN cannot be deleted',
      userState('admin', 'Manager'),
      { type: 'DeleteUser' },
      manager,
      'ADMIN',
      refused('invalid', 'The default admin user cannot be deleted.'),
    ],
    [
      'admin cannot be deleted even when missing',
      null,
      { type: 'DeleteUser' },
      manager,
      'admin',
      refused('invalid', 'The default admin user cannot be deleted.'),
    ],
    [
      'unknown user → not_found',
      null,
      { type: 'DeleteUser' },
      manager,
      'ghost',
      refused('not_found', 'User not found.'),
    ],
    [
      'deleted user → not_found',
      userState('gone', 'Designer', { deleted: true }),
      { type: 'DeleteUser' },
      manager,
      'gone',
      refused('not_found', 'User not found.'),
    ],
    [
      'a Technician cannot delete',
      userState('tech2', 'Technician'),
      { type: 'DeleteUser' },
      tech,
      'tech2',
      refused('forbidden', 'Only a manager can manage users.'),
    ],
    [
      'nobody but a manager can delete themselves',
      userState('tech', 'Technician'),
      { type: 'DeleteUser' },
      tech,
      'tech',
      refused('forbidden', 'Only a manager can manage users.'),
    ],
    // Update
    [
      'a manager changes a role',
      userState('tech', 'Technician'),
      { type: 'UpdateUser', changes: { role: 'Designer' } },
      manager,
      'tech',
      accepted({ type: 'UserUpdated', data: { changes: { role: 'Designer' } } }),
    ],
    [
      'self turns the sound off',
      userState('tech', 'Technician'),
      { type: 'UpdateUser', changes: { activationSoundEnabled: false } },
      tech,
      'tech',
      accepted({ type: 'UserUpdated', data: { changes: { activationSoundEnabled: false } } }),
    ],
    [
      'self changes email and password',
      userState('dr.lee', 'Doctor'),
      { type: 'UpdateUser', changes: { email: 'lee@x.io', passwordHash: 'new' } },
      doctor,
      'dr.lee',
      accepted({ type: 'UserUpdated', data: { changes: { email: 'lee@x.io', passwordHash: 'new' } } }),
    ],
    [
      'self in another letter case',
      userState('dr.lee', 'Doctor'),
      { type: 'UpdateUser', changes: { email: 'lee@x.io' } },
      { username: 'DR.LEE', role: 'Doctor' },
      'dr.lee',
      accepted({ type: 'UserUpdated', data: { changes: { email: 'lee@x.io' } } }),
    ],
    [
      'self cannot change own role',
      userState('tech', 'Technician'),
      { type: 'UpdateUser', changes: { role: 'Manager' } },
      tech,
      'tech',
      refused('forbidden', 'Only a manager can manage users.'),
    ],
    [
      'self cannot even restate own role',
      userState('tech', 'Technician'),
      { type: 'UpdateUser', changes: { role: 'Technician' } },
      tech,
      'tech',
      refused('forbidden', 'Only a manager can manage users.'),
    ],
    [
      'a Technician cannot update someone else',
      userState('tech2', 'Technician'),
      { type: 'UpdateUser', changes: { activationSoundEnabled: false } },
      tech,
      'tech2',
      refused('forbidden', 'Only a manager can manage users.'),
    ],
    [
      'a Doctor cannot update another doctor',
      userState('dr.patel', 'Doctor'),
      { type: 'UpdateUser', changes: { email: 'x@y.z' } },
      doctor,
      'dr.patel',
      refused('forbidden', 'Only a manager can manage users.'),
    ],
    [
      'unchanged values → no events',
      userState('tech', 'Technician', { email: 'a@b.c' }),
      { type: 'UpdateUser', changes: { role: 'Technician', email: 'a@b.c', activationSoundEnabled: true } },
      manager,
      'tech',
      accepted(),
    ],
    [
      'only the changed values are recorded',
      userState('tech', 'Technician', { email: 'a@b.c' }),
      {
        type: 'UpdateUser',
        changes: { role: 'Technician', email: 'new@b.c', activationSoundEnabled: undefined },
      },
      manager,
      'tech',
      accepted({ type: 'UserUpdated', data: { changes: { email: 'new@b.c' } } }),
    ],
    [
      'admin stays a Manager',
      userState('admin', 'Manager'),
      { type: 'UpdateUser', changes: { role: 'Technician' } },
      otherManager,
      'admin',
      refused('invalid', 'The default admin user must stay a Manager.'),
    ],
    [
      'admin may change its sound',
      userState('admin', 'Manager'),
      { type: 'UpdateUser', changes: { activationSoundEnabled: false } },
      manager,
      'admin',
      accepted({ type: 'UserUpdated', data: { changes: { activationSoundEnabled: false } } }),
    ],
    [
      'unknown user → not_found',
      null,
      { type: 'UpdateUser', changes: { email: 'a@b.c' } },
      manager,
      'ghost',
      refused('not_found', 'User not found.'),
    ],
    [
      'deleted user → not_found',
      userState('gone', 'Designer', { deleted: true }),
      { type: 'UpdateUser', changes: { email: 'a@b.c' } },
      manager,
      'gone',
      refused('not_found', 'User not found.'),
    ],
  ])('%s', (_label, state, command, actor, username, expected) => {
    expect(decideUser(state, command, actor, username)).toEqual(expected);
  });

  it('has the exact texts of the spec', () => {
    expect(USER_TEXTS.emptyCredentials).toBe('Username and password cannot be empty.');
    expect(USER_TEXTS.taken('x')).toBe('Username "x" is already taken.');
    expect(USER_TEXTS.adminUndeletable).toBe('The default admin user cannot be deleted.');
    expect(USER_TEXTS.invalidLogin).toBe('Invalid username or password.');
  });
});

describe('evolveUser and the public shape', () => {
  it('folds create, update and delete with contiguous versions', () => {
    const events: UserEventData[] = [
      {
        type: 'UserCreated',
        data: { username: 'tech', role: 'Technician', email: null, passwordHash: 'h1' },
      },
      { type: 'UserUpdated', data: { changes: { activationSoundEnabled: false, email: 't@x.io' } } },
      { type: 'UserUpdated', data: { changes: { passwordHash: 'h2' } } },
      { type: 'UserDeleted', data: {} },
    ];
    const states = events.reduce<UserState[]>(
      (all, event) => [...all, evolveUser(all.at(-1) ?? null, event)],
      [],
    );
    expect(states.map((state) => state.version)).toEqual([1, 2, 3, 4]);
    expect(states[0]).toEqual({
      username: 'tech',
      role: 'Technician',
      email: null,
      passwordHash: 'h1',
      activationSoundEnabled: true, // treated as true unless explicitly false
      notify: { push: true, email: true },
      deleted: false,
      version: 1,
    });
    expect(states[2]).toMatchObject({ activationSoundEnabled: false, email: 't@x.io', passwordHash: 'h2' });
    expect(states[3].deleted).toBe(true);
  });

  it('imports a user whole', () => {
    const imported = evolveUser(null, {
      type: 'UserImported',
      data: {
        user: {
          username: 'dr.lee',
          role: 'Doctor',
          email: null,
          activationSoundEnabled: false,
          passwordHash: 'h',
        },
      },
    });
    expect(imported).toEqual({
      username: 'dr.lee',
      role: 'Doctor',
      email: null,
      activationSoundEnabled: false,
      notify: { push: true, email: true }, // an older import: both on
      passwordHash: 'h',
      deleted: false,
      version: 1,
    });
  });

  it('never exposes the password hash', () => {
    const shown = publicUser(userState('tech', 'Technician', { email: 't@x.io' }));
    expect(shown).toEqual({
      username: 'tech',
      role: 'Technician',
      email: 't@x.io',
      activationSoundEnabled: true,
      notify: { push: true, email: true },
    });
    expect(Object.keys(shown)).not.toContain('passwordHash');
  });

  it.each([
    ['admin', 'user-admin'],
    ['Admin', 'user-admin'],
    ['Dr.Lee', 'user-dr.lee'],
  ])('stream id of %s is %s (case-insensitive names)', (username, id) => {
    expect(userStreamId(username)).toBe(id);
  });
});
