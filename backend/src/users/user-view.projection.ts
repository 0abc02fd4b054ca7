import { Injectable } from '@nestjs/common';
import { notifyOf, type UserState } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';

@Injectable()
export class UserViewProjection {
  async apply(
    state: UserState,
    lastPosition: string,
    runner: QueryRunner,
    table = 'user_view',
  ): Promise<void> {
    await runner.query(
      `INSERT INTO ${table} (username_key, username, role, email, activation_sound_enabled, password_hash, version,
                             deleted, last_position, notify_push, notify_email)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (username_key) DO UPDATE SET username = $2, role = $3, email = $4,
         activation_sound_enabled = $5, password_hash = $6, version = $7, deleted = $8, last_position = $9,
         notify_push = $10, notify_email = $11`,
      [
        state.username.toLowerCase(),
        state.username,
        state.role,
        state.email,
        state.activationSoundEnabled,
        state.passwordHash,
        state.version,
        state.deleted,
        lastPosition,
        notifyOf(state).push,
        notifyOf(state).email,
      ],
    );
  }
}
