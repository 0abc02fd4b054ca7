import { Injectable } from '@nestjs/common';
import type { User } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { userStateOf, type UserViewRow } from './user-view.projection.js';

export interface UserRecord extends User {
  passwordHash: string;
}

/** A live user's record: the state without what only the log needs. */
function toRecord(row: UserViewRow): UserRecord {
  const { deleted: _deleted, version: _version, ...record } = userStateOf(row);
  return record;
}

export function withoutSecrets({ passwordHash: _, ...user }: UserRecord): User {
  return user;
}

/** Reads of the users read model. */
@Injectable()
export class UsersQueries {
  constructor(private readonly dataSource: DataSource) {}

  async find(username: string): Promise<UserRecord | undefined> {
    const rows: UserViewRow[] = await this.dataSource.query(
      'SELECT * FROM user_view WHERE username_key = $1 AND NOT deleted',
      [username.trim().toLowerCase()],
    );
    return rows[0] && toRecord(rows[0]);
  }

  /** Whether the name was a user's who was deleted (and is not a live user's now). */
  async wasDeleted(username: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM user_view WHERE username_key = $1 AND deleted',
      [username.trim().toLowerCase()],
    );
    return rows.length > 0;
  }

  async list(): Promise<UserRecord[]> {
    const rows: UserViewRow[] = await this.dataSource.query(
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
