import { Injectable } from '@nestjs/common';
import { notifyOf, parseRole, type UserState } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { updateAll, writeRows, type ReadModel, type ReadModelColumn } from '../event-store/read-model.js';

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

const TYPES: Record<(typeof USER_VIEW_COLUMNS)[number], string> = {
  username_key: 'text',
  username: 'text',
  role: 'text',
  email: 'text',
  activation_sound_enabled: 'boolean',
  password_hash: 'text',
  version: 'int',
  deleted: 'boolean',
  last_position: 'bigint',
  notify_push: 'boolean',
  notify_email: 'boolean',
};

const COLUMNS: ReadModelColumn[] = USER_VIEW_COLUMNS.map((name) =>
  name === 'last_position' ? { name, type: TYPES[name], position: true } : { name, type: TYPES[name] },
);

/** user_view: one row per user, the state its events left (written again whole). */
export const USER_VIEW: ReadModel = {
  table: 'user_view',
  columns: COLUMNS,
  key: ['username_key'],
  update: updateAll(COLUMNS, ['username_key']),
};

/** Writes a user's row in the caller's transaction (its commands; a rebuild writes USER_VIEW in bulk). */
@Injectable()
export class UserViewProjection {
  async apply(
    state: UserState,
    lastPosition: string,
    runner: QueryRunner,
    table = USER_VIEW.table,
  ): Promise<void> {
    await writeRows(runner, USER_VIEW, [userViewValues(state, lastPosition)], table);
  }
}
