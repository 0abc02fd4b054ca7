import { ForbiddenException, Injectable } from '@nestjs/common';
import { ACCOUNT_TEXTS, STEP_UP_MS, type ReauthRequiredAnswer } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock.js';
import type { AuthenticatedRequest } from '../common/current-actor.js';

/**
 * Step-up (api.md Accounts): the calls that read or change everything (backup, export, restore,
 * users, a user's factors) need a session that proved its user within STEP_UP_MS: its sign-in,
 * or POST /auth/reauth. The proof time is `sessions.proved_at`, read from the database on each
 * such call (never from the session cache), so a proof counts at once on every API process.
 */
@Injectable()
export class StepUpService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Throws the 403 `{error, reauth: true}` unless the caller's session proved its user recently. */
  async require(request: AuthenticatedRequest): Promise<void> {
    const rows: { proved_at: Date }[] = request.sessionTokenHash
      ? await this.dataSource.query('SELECT proved_at FROM sessions WHERE token_hash = $1', [
          request.sessionTokenHash,
        ])
      : [];
    const provedAt = rows[0] ? new Date(rows[0].proved_at).getTime() : -Infinity;
    if (this.clock.now() - provedAt > STEP_UP_MS)
      throw new ForbiddenException({
        error: ACCOUNT_TEXTS.confirmItIsYou,
        reauth: true,
      } satisfies ReauthRequiredAnswer);
  }

  /** The session proved its user now. */
  async prove(tokenHash: string): Promise<void> {
    await this.dataSource.query('UPDATE sessions SET proved_at = $2 WHERE token_hash = $1', [
      tokenHash,
      new Date(this.clock.now()),
    ]);
  }
}
