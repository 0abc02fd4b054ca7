import { Injectable } from '@nestjs/common';
import { parseRole, type User } from '@alignerflow/domain';
import { DataSource } from 'typeorm';

export interface UserRecord extends User {
  passwordHash: string;
}

interface UserRow {
  username: string;
  role: string;
  email: string | null;
  activation_sound_enabled: boolean;
  notify_push: boolean;
  notify_email: boolean;
  password_hash: string;
}

function toRecord(row: UserRow): UserRecord {
  return {
    username: row.username,
    role: parseRole(row.role)!,
    email: row.email,
    activationSoundEnabled: row.activation_sound_enabled,
    notify: { push: row.notify_push, email: row.notify_email },
    passwordHash: row.password_hash,
  };
}

export function withoutSecrets({ passwordHash: _, ...user }: UserRecord): User {
  return user;
}

/** Reads of the users read model. */
@Injectable()
export class UsersQueries {
  constructor(private readonly dataSource: DataSource) {}

  async find(username: string): Promise<UserRecord | undefined> {
    const rows: UserRow[] = await this.dataSource.query(
      'SELECT * FROM user_view WHERE username_key = $1 AND NOT deleted',
      [username.trim().toLowerCase()],
    );
    return rows[0] && toRecord(rows[0]);
  }

  async list(): Promise<UserRecord[]> {
    const rows: UserRow[] = await this.dataSource.query(
      'SELECT * FROM user_view WHERE NOT deleted ORDER BY username_key',
    );
    return rows.map(toRecord);
  }

  /** Changes whenever any user changes: the list's ETag. */
  async listTag(): Promise<string> {
    const [row] = await this.dataSource.query(
      'SELECT coalesce(max(last_position), 0) AS position, count(*) AS n FROM user_view',
    );
    return `"u${row.position}-${row.n}"`;
  }

  async count(): Promise<number> {
    const [row] = await this.dataSource.query('SELECT count(*)::int AS n FROM user_view');
    return row.n;
  }
}
