import { isAdminUsername, parseRole, sameUsername, type Actor, type Role } from '../permissions/roles.js';
import { can } from '../permissions/permissions.js';
import { checkText, LIMITS } from '../validation/validation.js';
import type { Rejection } from '../case/decision.js';

export const USER_TEXTS = {
  emptyCredentials: 'Username and password cannot be empty.',
  taken: (name: string) => `Username "${name}" is already taken.`,
  usernameOfDeletedUser: 'That username belonged to a deleted user. Choose another.',
  adminUndeletable: 'The default admin user cannot be deleted.',
  unknownRole: (role: string) => `Unknown role "${role}".`,
  notFound: 'User not found.',
  managerOnly: 'Only a manager can manage users.',
  invalidLogin: 'Invalid username or password.',
  usernameCharacters: 'Usernames may use letters, digits, dots, dashes and underscores.',
  adminStaysManager: 'The default admin user must stay a Manager.',
  passwordEmpty: 'Password cannot be empty.',
  passwordTooShort: 'Password must be at least 12 characters.',
  currentPasswordWrong: 'The current password is incorrect.',
  notifyInvalid: 'notify must be {push: boolean, email: boolean}.',
  tooManySignIns: (minutes: number) => `Too many sign-in attempts. Try again in ${minutes} minute(s).`,
} as const;

/** New passwords (not the demo users' seeded ones) need at least this many characters. */
export const PASSWORD_MIN_LENGTH = 12;

/** Sign-in throttling: this many failures for one username from one address ... */
export const SIGN_IN_FAILURE_LIMIT = 5;
/** ... within this window refuse that pair until the window, opened by the first failure, ends. */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/** The rule for a new password, after its emptiness was judged: the error text, or null. */
export function checkNewPassword(password: string): string | null {
  return [...password].length < PASSWORD_MIN_LENGTH ? USER_TEXTS.passwordTooShort : null;
}

/** The text of a throttled sign-in: the wait rounded up to whole minutes, never 0. */
export function tooManySignInsText(retryAfterSeconds: number): string {
  return USER_TEXTS.tooManySignIns(Math.max(1, Math.ceil(retryAfterSeconds / 60)));
}

/** The channels a user is told on besides the open app (api.md, Reach and insight). */
export interface NotifyChannels {
  push: boolean;
  email: boolean;
}

/** Everyone is told on every channel until they turn one off (also users of older logs). */
export const DEFAULT_NOTIFY: NotifyChannels = { push: true, email: true };

export interface User {
  username: string;
  role: Role;
  email: string | null;
  activationSoundEnabled: boolean;
  notify: NotifyChannels;
}

export interface UserState extends User {
  passwordHash: string;
  deleted: boolean;
  version: number;
}

export type UserEventData =
  | {
      type: 'UserCreated';
      data: { username: string; role: Role; email: string | null; passwordHash: string };
    }
  | {
      type: 'UserUpdated';
      data: {
        changes: Partial<
          Pick<UserState, 'role' | 'email' | 'activationSoundEnabled' | 'passwordHash' | 'notify'>
        >;
      };
    }
  | { type: 'UserDeleted'; data: Record<string, never> }
  /** `notify` is absent in imports written before users chose their channels. */
  | {
      type: 'UserImported';
      data: { user: Omit<User, 'notify'> & { notify?: NotifyChannels; passwordHash: string } };
    };

export function userStreamId(username: string): string {
  return `user-${username.toLowerCase()}`;
}

export function evolveUser(state: UserState | null, event: UserEventData): UserState {
  const version = (state?.version ?? 0) + 1;
  switch (event.type) {
    case 'UserCreated':
      return { ...event.data, activationSoundEnabled: true, notify: DEFAULT_NOTIFY, deleted: false, version };
    case 'UserImported':
      return { ...event.data.user, notify: notifyOf(event.data.user), deleted: false, version };
    case 'UserUpdated':
      // A state of an older snapshot may lack `notify`: the default, then the change.
      return { ...state!, notify: notifyOf(state!), ...event.data.changes, version };
    case 'UserDeleted':
      return { ...state!, deleted: true, version };
  }
}

export function publicUser(state: UserState): User {
  const { username, role, email, activationSoundEnabled } = state;
  return { username, role, email, activationSoundEnabled, notify: notifyOf(state) };
}

/** A user's channels, the defaults filling what an older record or a partial value lacks. */
export function notifyOf(user: { notify?: Partial<NotifyChannels> | null }): NotifyChannels {
  return {
    push: user.notify?.push !== false,
    email: user.notify?.email !== false,
  };
}

/** A `notify` value from a request or a backup: both switches optional, each a boolean. */
export function checkNotify(
  value: unknown,
  current: NotifyChannels = DEFAULT_NOTIFY,
): { value: NotifyChannels } | { error: string } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: USER_TEXTS.notifyInvalid };
  const { push, email, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length) return { error: USER_TEXTS.notifyInvalid };
  if (
    (push !== undefined && typeof push !== 'boolean') ||
    (email !== undefined && typeof email !== 'boolean')
  )
    return { error: USER_TEXTS.notifyInvalid };
  return { value: { push: push ?? current.push, email: email ?? current.email } };
}

const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;

export interface NewUserInput {
  username?: unknown;
  password?: unknown;
  role?: unknown;
  email?: unknown;
}

/** Checks the Add User form; the password is kept exactly as typed, only its emptiness is judged trimmed. */
export function checkNewUser(
  input: NewUserInput,
):
  | { value: { username: string; password: string; role: Role; email: string | null } }
  | { rejection: Rejection } {
  const username = typeof input.username === 'string' ? input.username.trim() : '';
  const password = typeof input.password === 'string' ? input.password : '';
  if (!username || !password.trim())
    return { rejection: { kind: 'invalid', message: USER_TEXTS.emptyCredentials } };
  if (username.length > LIMITS.username || password.length > LIMITS.password) {
    return { rejection: { kind: 'invalid', message: 'Username or password is too long.' } };
  }
  if (!USERNAME_PATTERN.test(username))
    return { rejection: { kind: 'invalid', message: USER_TEXTS.usernameCharacters } };
  const role = parseRole(input.role ?? 'Technician');
  if (!role) return { rejection: { kind: 'invalid', message: USER_TEXTS.unknownRole(String(input.role)) } };
  const email = checkEmail(input.email);
  if ('error' in email) return { rejection: { kind: 'invalid', message: email.error } };
  return { value: { username, password, role, email: email.value } };
}

export function checkEmail(value: unknown): { value: string | null } | { error: string } {
  if (value === undefined || value === null || value === '') return { value: null };
  const email = checkText('Email', value, { max: LIMITS.email });
  if ('error' in email) return email;
  return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.value)
    ? { value: email.value }
    : { error: 'Email is not valid.' };
}

export type UserCommand =
  | { type: 'CreateUser'; user: { username: string; role: Role; email: string | null; passwordHash: string } }
  | {
      type: 'UpdateUser';
      changes: Partial<
        Pick<UserState, 'role' | 'email' | 'activationSoundEnabled' | 'passwordHash' | 'notify'>
      >;
    }
  | { type: 'DeleteUser' };

export type UserDecision = { ok: true; events: UserEventData[] } | { ok: false; rejection: Rejection };

/** `actor` null is the system itself (first start, demo seed). */
export function decideUser(
  state: UserState | null,
  command: UserCommand,
  actor: Actor | null,
  username: string,
): UserDecision {
  const live = state && !state.deleted ? state : null;
  const isManager = !actor || can(actor.role, 'manageUsers');
  const fail = (kind: Rejection['kind'], message: string): UserDecision => ({
    ok: false,
    rejection: { kind, message },
  });
  switch (command.type) {
    case 'CreateUser':
      if (!isManager) return fail('forbidden', USER_TEXTS.managerOnly);
      if (live) return fail('conflict', USER_TEXTS.taken(command.user.username));
      // A new person under an old name would inherit the old one's trail and whatever named them.
      if (state?.deleted) return fail('conflict', USER_TEXTS.usernameOfDeletedUser);
      return { ok: true, events: [{ type: 'UserCreated', data: command.user }] };
    case 'UpdateUser': {
      if (!live) return fail('not_found', USER_TEXTS.notFound);
      const self = !!actor && sameUsername(actor.username, live.username);
      if (!isManager && (!self || command.changes.role !== undefined))
        return fail('forbidden', USER_TEXTS.managerOnly);
      if (isAdminUsername(live.username) && command.changes.role && command.changes.role !== 'Manager') {
        return fail('invalid', USER_TEXTS.adminStaysManager);
      }
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(
          ([field, value]) =>
            value !== undefined &&
            (field === 'notify'
              ? !sameNotify(value as NotifyChannels, notifyOf(live))
              : value !== live[field as keyof UserState]),
        ),
      );
      return {
        ok: true,
        events: Object.keys(changes).length ? [{ type: 'UserUpdated', data: { changes } }] : [],
      };
    }
    case 'DeleteUser':
      if (!isManager) return fail('forbidden', USER_TEXTS.managerOnly);
      if (isAdminUsername(username)) return fail('invalid', USER_TEXTS.adminUndeletable);
      if (!live) return fail('not_found', USER_TEXTS.notFound);
      return { ok: true, events: [{ type: 'UserDeleted', data: {} }] };
  }
}

function sameNotify(a: NotifyChannels, b: NotifyChannels): boolean {
  return a.push === b.push && a.email === b.email;
}
