import { Injectable } from '@nestjs/common';
import { MFA_TOKEN_MAX_FAILURES, MFA_TOKEN_MS } from '@alignerflow/domain';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { hashToken } from '../../sessions/sessions.service.js';

export interface MfaTokenRow {
  username_key: string;
  remember: boolean;
  challenge: string | null;
}

/**
 * The mfaToken of a sign-in between its password and its second step: a random token of which
 * only the hash is stored, living MFA_TOKEN_MS and dying at its MFA_TOKEN_MAX_FAILURES-th wrong
 * code. In the database, so the second step may reach another API process than the first.
 */
@Injectable()
export class MfaTokens {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async issue(username: string, remember: boolean): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.dataSource.query('DELETE FROM mfa_tokens WHERE expires_at <= now()');
    await this.dataSource.query(
      'INSERT INTO mfa_tokens (token_hash, username_key, remember, expires_at) VALUES ($1, $2, $3, $4)',
      [hashToken(token), username.toLowerCase(), remember, new Date(this.clock.now() + MFA_TOKEN_MS)],
    );
    return token;
  }

  /** The live token's row, or undefined (unknown, expired, or dead of wrong codes). */
  async find(token: string): Promise<MfaTokenRow | undefined> {
    const rows: MfaTokenRow[] = await this.dataSource.query(
      `SELECT username_key, remember, challenge FROM mfa_tokens
        WHERE token_hash = $1 AND expires_at > $2 AND failures < $3`,
      [hashToken(token), new Date(this.clock.now()), MFA_TOKEN_MAX_FAILURES],
    );
    return rows[0];
  }

  /** Counts a wrong code; the token dies at the last one allowed. */
  async fail(token: string): Promise<void> {
    await this.dataSource.query('UPDATE mfa_tokens SET failures = failures + 1 WHERE token_hash = $1', [
      hashToken(token),
    ]);
  }

  /** Uses the token up; false when another request did so first. */
  async consume(token: string): Promise<boolean> {
    const [, removed]: [unknown, number] = await this.dataSource.query(
      'DELETE FROM mfa_tokens WHERE token_hash = $1',
      [hashToken(token)],
    );
    return removed > 0;
  }

  async setChallenge(token: string, challenge: string): Promise<void> {
    await this.dataSource.query('UPDATE mfa_tokens SET challenge = $2 WHERE token_hash = $1', [
      hashToken(token),
      challenge,
    ]);
  }
}
