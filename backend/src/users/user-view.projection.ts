import { Injectable } from '@nestjs/common';
import { notifyOf, parseRole, type UserState } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';

/** A row of user_view (migrations/002, 010, 021): a user's state as its events left it. */
export interface UserViewRow {
  username_key: string;
  username: string;
  role: string;
  email: string | null;
  activation_sound_enabled: boolean;
  notify_push: boolean;
  notify_email: boolean;
  password_hash: string;
  version: number;
  deleted: boolean;
  last_position: string;
}

/** The columns of user_view, in the order `userViewValues` gives them. */
export const USER_VIEW_COLUMNS = [
  'username_key',
  'username',
  'role',
  'email',
  'activation_sound_enabled',
  'password_hash',
  'version',
  'deleted',
  'last_position',
  'notify_push',
  'notify_email',
] as const;

/** The row a user's state makes, as values in the order of USER_VIEW_COLUMNS. */
export function userViewValues(state: UserState, lastPosition: string): unknown[] {
  const notify = notifyOf(state);
  return [
    state.username.toLowerCase(),
    state.username,
    state.role,
    state.email,
    state.activationSoundEnabled,
    state.passwordHash,
    state.version,
    state.deleted,
    lastPosition,
    notify.push,
    notify.email,
  ];
}

/** The user's state a row holds (the rebuild resumes from it, a restore decides on it). */
export function userStateOf(row: Omit<UserViewRow, 'username_key' | 'last_position'>): UserState {
  return {
    username: row.username,
    // Only the projection writes the row, from a state the domain accepted.
    role: parseRole(row.role)!,
    email: row.email,
    activationSoundEnabled: row.activation_sound_enabled,
    notify: { push: row.notify_push, email: row.notify_email },
    passwordHash: row.password_hash,
    deleted: row.deleted,
    version: row.version,
  };
}

@Injectable()
export class UserViewProjection {
  async apply(
    state: UserState,
    lastPosition: string,
    runner: QueryRunner,
    table = 'user_view',
  ): Promise<void> {
    const placeholders = USER_VIEW_COLUMNS.map((_, index) => `$${index + 1}`).join(', ');
    const updates = USER_VIEW_COLUMNS.slice(1)
      .map((column, index) => `${column} = $${index + 2}`)
      .join(', ');
    await runner.query(
      `INSERT INTO ${table} (${USER_VIEW_COLUMNS.join(', ')}) VALUES (${placeholders})
       ON CONFLICT (username_key) DO UPDATE SET ${updates}`,
      userViewValues(state, lastPosition),
    );
  }
}
