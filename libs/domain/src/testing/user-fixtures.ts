/** Fixtures of the user specs: actors, user states, expected decisions. */
import type { Actor } from '../permissions/roles.js';
import { type UserDecision, type UserEventData, type UserState } from '../users/users.js';

export const userState = (
  username: string,
  role: UserState['role'],
  extra: Partial<UserState> = {},
): UserState => ({
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

export const manager: Actor = { username: 'admin', role: 'Manager' };
export const otherManager: Actor = { username: 'boss', role: 'Manager' };
export const tech: Actor = { username: 'tech', role: 'Technician' };
export const doctor: Actor = { username: 'dr.lee', role: 'Doctor' };
export const newUser = (username: string) => ({
  type: 'CreateUser' as const,
  user: { username, role: 'Technician' as const, email: null, passwordHash: 'h' },
});
export const accepted = (...events: UserEventData[]): UserDecision => ({ ok: true, events });
export const refused = (kind: string, message: string) => ({ ok: false, rejection: { kind, message } });
