import { Inject, Injectable } from '@nestjs/common';
import {
  PRODUCT_NAME,
  RECOVERY_CODE_COUNT,
  type MfaMethod,
  type MfaStatus,
  type Role,
  type TotpSetupAnswer,
} from '@alignerflow/domain';
import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { SecretBox } from './secret-box.js';

/** RFC 6238 as authenticator apps use it: 6 digits, 30 s steps, one step of clock drift either way. */
const TOTP_PERIOD_S = 30;
const TOTP_TOLERANCE_S = TOTP_PERIOD_S;
/** Recovery codes: no look-alike characters (0/o, 1/l/i), two groups of five. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A code as typed: spaces and dashes left out, letters in lower case. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

function recoveryHash(code: string): string {
  // 10 random characters from 31 (about 50 bits) need no slow hash: no list guesses them.
  return createHash('sha256').update(normalizeCode(code)).digest('base64url');
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/**
 * A user's authenticator app and recovery codes, and what their factors add up to. Passkeys are
 * counted here too (passkeys/passkeys.service.ts keeps them).
 */
@Injectable()
export class SecondFactors {
  constructor(
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  isRequired(role: Role): boolean {
    return this.config.accounts.mfaRequiredRoles.includes(role);
  }

  async status(username: string, role: Role): Promise<MfaStatus> {
    const [row]: { totp: boolean; passkeys: number }[] = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM mfa_totp WHERE username_key = $1 AND secret IS NOT NULL) AS totp,
              (SELECT count(*)::int FROM passkeys WHERE username_key = $1) AS passkeys`,
      [username.toLowerCase()],
    );
    return { totp: row.totp, passkeys: row.passkeys, required: this.isRequired(role) };
  }

  /** The second steps this user can take now; empty when they have no second factor. */
  async methods(username: string): Promise<MfaMethod[]> {
    const { totp, passkeys } = await this.status(username, 'Technician');
    if (!totp && !passkeys) return [];
    const [{ codes }]: { codes: number }[] = await this.dataSource.query(
      'SELECT count(*)::int AS codes FROM mfa_recovery_codes WHERE username_key = $1',
      [username.toLowerCase()],
    );
    return [
      ...(totp ? (['totp'] as const) : []),
      ...(passkeys ? (['passkey'] as const) : []),
      ...(codes ? (['recovery'] as const) : []),
    ];
  }

  /** A new authenticator secret, pending until a code from it is confirmed. */
  async beginTotp(username: string): Promise<TotpSetupAnswer> {
    const secret = generateSecret();
    await this.dataSource.query(
      `INSERT INTO mfa_totp (username_key, pending_secret) VALUES ($1, $2)
       ON CONFLICT (username_key) DO UPDATE SET pending_secret = EXCLUDED.pending_secret`,
      [username.toLowerCase(), await this.box.seal(secret)],
    );
    const otpauthUrl = generateURI({ issuer: PRODUCT_NAME, label: username, secret, period: TOTP_PERIOD_S });
    return { secret, otpauthUrl };
  }

  /** Activates the pending secret when the code is one of it: the new recovery codes, else null. */
  async confirmTotp(username: string, code: string): Promise<string[] | null> {
    const usernameKey = username.toLowerCase();
    const [row]: { pending_secret: string | null }[] = await this.dataSource.query(
      'SELECT pending_secret FROM mfa_totp WHERE username_key = $1',
      [usernameKey],
    );
    if (!row?.pending_secret) return null;
    const step = await this.matchingStep(await this.box.open(row.pending_secret), code, null);
    if (step === null) return null;
    const [, changed]: [unknown, number] = await this.dataSource.query(
      `UPDATE mfa_totp SET secret = pending_secret, pending_secret = NULL, last_step = $3
        WHERE username_key = $1 AND pending_secret = $2`,
      [usernameKey, row.pending_secret, step],
    );
    if (!changed) return null;
    const codes = await this.replaceRecoveryCodes(usernameKey);
    await this.sessions.lift(username);
    return codes;
  }

  async removeTotp(username: string, role: Role): Promise<void> {
    await this.dataSource.query('DELETE FROM mfa_totp WHERE username_key = $1', [username.toLowerCase()]);
    await this.afterRemoval(username, role);
  }

  /**
   * After a factor was removed: recovery codes are a way back to the other factors, so without
   * any they go too; and a user whose role must have a factor is back to setting one up.
   */
  async afterRemoval(username: string, role: Role): Promise<void> {
    const { totp, passkeys } = await this.status(username, role);
    if (totp || passkeys) return;
    await this.dataSource.query('DELETE FROM mfa_recovery_codes WHERE username_key = $1', [
      username.toLowerCase(),
    ]);
    if (this.isRequired(role)) await this.sessions.restrict(username);
  }

  /** Whether the code is the active authenticator's, for a time step after the last one accepted. */
  async checkTotp(username: string, code: string): Promise<boolean> {
    const usernameKey = username.toLowerCase();
    const [row]: { secret: string | null; last_step: string | null }[] = await this.dataSource.query(
      'SELECT secret, last_step FROM mfa_totp WHERE username_key = $1',
      [usernameKey],
    );
    if (!row?.secret) return false;
    const lastStep = row.last_step === null ? null : Number(row.last_step);
    const step = await this.matchingStep(await this.box.open(row.secret), code, lastStep);
    if (step === null) return false;
    // Two requests with the same code at once: only one moves the step on.
    const [, changed]: [unknown, number] = await this.dataSource.query(
      `UPDATE mfa_totp SET last_step = $2
        WHERE username_key = $1 AND secret IS NOT NULL AND (last_step IS NULL OR last_step < $2)`,
      [usernameKey, step],
    );
    return changed > 0;
  }

  /** Uses up one recovery code; false when it is not (or no longer) one of the user's. */
  async useRecoveryCode(username: string, code: string): Promise<boolean> {
    const [, removed]: [unknown, number] = await this.dataSource.query(
      'DELETE FROM mfa_recovery_codes WHERE username_key = $1 AND code_hash = $2',
      [username.toLowerCase(), recoveryHash(code)],
    );
    return removed > 0;
  }

  /** A Manager's reset: no factor left, no session left. */
  async reset(username: string): Promise<void> {
    const usernameKey = username.toLowerCase();
    await this.dataSource.transaction(async (manager) => {
      await manager.query('DELETE FROM mfa_totp WHERE username_key = $1', [usernameKey]);
      await manager.query('DELETE FROM mfa_recovery_codes WHERE username_key = $1', [usernameKey]);
      await manager.query('DELETE FROM passkeys WHERE username_key = $1', [usernameKey]);
      await manager.query('DELETE FROM mfa_tokens WHERE username_key = $1', [usernameKey]);
    });
    await this.sessions.endAllFor(username);
  }

  private async replaceRecoveryCodes(usernameKey: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.dataSource.transaction(async (manager) => {
      await manager.query('DELETE FROM mfa_recovery_codes WHERE username_key = $1', [usernameKey]);
      await manager.query(
        'INSERT INTO mfa_recovery_codes (username_key, code_hash) SELECT $1, unnest($2::text[])',
        [usernameKey, codes.map(recoveryHash)],
      );
    });
    return codes;
  }

  /** The time step the 6-digit code belongs to (now, or one step either side), after `afterStep`. */
  private async matchingStep(secret: string, code: string, afterStep: number | null): Promise<number | null> {
    const token = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(token)) return null;
    const result = await verify({
      secret,
      token,
      period: TOTP_PERIOD_S,
      epoch: Math.floor(this.clock.now() / 1000),
      epochTolerance: TOTP_TOLERANCE_S,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    return result.valid ? (result as { timeStep: number }).timeStep : null;
  }
}
