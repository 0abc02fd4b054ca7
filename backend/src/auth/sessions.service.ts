import { Injectable } from '@nestjs/common';
import { parseRole, type Actor } from '@alignerflow/domain';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';

const HOUR_MS = 60 * 60 * 1000;
export const REMEMBERED_SESSION_MS = 30 * 24 * HOUR_MS;
export const SESSION_MS = 12 * HOUR_MS;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Server-side sessions: only a hash of the token is stored, so a leaked table opens nothing. */
@Injectable()
export class SessionsService {
  constructor(private readonly dataSource: DataSource) {}

  async start(username: string, remember: boolean): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + (remember ? REMEMBERED_SESSION_MS : SESSION_MS));
    await this.dataSource.query(
      'INSERT INTO sessions (token_hash, username_key, expires_at) VALUES ($1, $2, $3)',
      [hashToken(token), username.toLowerCase(), expiresAt],
    );
    return { token, expiresAt };
  }

  /** The signed-in user of a live session whose user still exists. */
  async resolve(tokenHash: string): Promise<Actor | undefined> {
    const rows: { username: string; role: string }[] = await this.dataSource.query(
      `SELECT u.username, u.role FROM sessions s JOIN user_view u ON u.username_key = s.username_key
        WHERE s.token_hash = $1 AND s.expires_at > now() AND NOT u.deleted`,
      [tokenHash],
    );
    const role = rows[0] && parseRole(rows[0].role);
    return role ? { username: rows[0].username, role } : undefined;
  }

  async end(tokenHash: string): Promise<void> {
    await this.dataSource.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
  }

  async endAllFor(username: string): Promise<void> {
    await this.dataSource.query('DELETE FROM sessions WHERE username_key = $1', [username.toLowerCase()]);
  }
}
