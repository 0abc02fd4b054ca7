import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Passkey } from '@alignerflow/domain';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { SessionsService } from '../../sessions/sessions.service.js';

/** A WebAuthn ceremony must be finished within this long after its options were handed out. */
const CHALLENGE_MS = 5 * 60 * 1000;

/** What a challenge is for: adding a passkey, signing in with one alone, confirming it is you. */
export type ChallengePurpose = 'register' | 'login' | 'reauth';

interface PasskeyRow {
  id: string;
  username_key: string;
  name: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
  created_at: Date;
}

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): discoverable credentials with user verification
 * required, of the relying party named by PUBLIC_URL's host name, checked against its origin.
 * Challenges live in the database and are used once, so any API process may finish a ceremony.
 */
@Injectable()
export class PasskeysService {
  private readonly logger = new Logger('Passkeys');

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get rp() {
    return this.config.accounts.webauthn;
  }

  async registrationOptions(username: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.rows(username);
    const options = await generateRegistrationOptions({
      rpName: this.rp.rpName,
      rpID: this.rp.rpId,
      userName: username,
      attestationType: 'none',
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'required',
      },
      excludeCredentials: existing.map((row) => ({ id: row.id, transports: row.transports })),
    });
    await this.remember(options.challenge, 'register', username);
    return options;
  }

  /** Verifies a registration and keeps the passkey; null when it does not verify. */
  async register(username: string, credential: unknown, name: string): Promise<Passkey | null> {
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: credential as RegistrationResponseJSON,
        expectedChallenge: (challenge) => this.use(challenge, 'register', username),
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.rpId,
        requireUserVerification: true,
      });
    } catch (error) {
      this.logger.warn(`A passkey registration of ${username} did not verify: ${(error as Error).message}`);
      return null;
    }
    if (!verified.verified) return null;
    const { id, publicKey, counter, transports } = verified.registrationInfo.credential;
    const rows: PasskeyRow[] = await this.dataSource.query(
      `INSERT INTO passkeys (id, username_key, name, public_key, counter, transports)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING RETURNING *`,
      [id, username.toLowerCase(), name, Buffer.from(publicKey), counter, transports ?? []],
    );
    if (!rows.length) return null;
    await this.sessions.lift(username);
    return shape(rows[0]);
  }

  async list(username: string): Promise<Passkey[]> {
    return (await this.rows(username)).map(shape);
  }

  async remove(username: string, id: string): Promise<boolean> {
    const [, removed]: [unknown, number] = await this.dataSource.query(
      'DELETE FROM passkeys WHERE id = $1 AND username_key = $2',
      [id, username.toLowerCase()],
    );
    return removed > 0;
  }

  /**
   * Options of an assertion. Without a user (a passkey alone) the browser offers any discoverable
   * passkey of this site; with one (a second step, a confirmation), that user's passkeys.
   */
  async authenticationOptions(username: string | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const allow = username ? await this.rows(username) : [];
    return generateAuthenticationOptions({
      rpID: this.rp.rpId,
      userVerification: 'required',
      allowCredentials: allow.map((row) => ({ id: row.id, transports: row.transports })),
    });
  }

  /** Hands out options whose challenge is kept for `purpose` (a passkey alone, or a confirmation). */
  async challengeFor(purpose: 'login' | 'reauth', username: string | null) {
    const options = await this.authenticationOptions(username);
    await this.remember(options.challenge, purpose, username);
    return options;
  }

  /**
   * The username key of the passkey that signed `credential` over a challenge we handed out for
   * this purpose (or the given one, of an mfaToken); null when anything does not verify. The
   * passkey must be `username`'s when one is given.
   */
  async verifyAssertion(
    credential: unknown,
    expected: { purpose: 'login' | 'reauth'; username?: string } | { challenge: string; username: string },
  ): Promise<string | null> {
    const response = credential as AuthenticationResponseJSON;
    const id = typeof response?.id === 'string' ? response.id : '';
    const [row]: PasskeyRow[] = await this.dataSource.query('SELECT * FROM passkeys WHERE id = $1', [id]);
    if (!row || (expected.username && row.username_key !== expected.username.toLowerCase())) return null;
    try {
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge:
          'challenge' in expected
            ? expected.challenge
            : (challenge) => this.use(challenge, expected.purpose, expected.username ?? null),
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.rpId,
        credential: {
          id: row.id,
          publicKey: new Uint8Array(row.public_key),
          counter: Number(row.counter),
          transports: row.transports,
        },
        requireUserVerification: true,
      });
      if (!verified.verified) return null;
      await this.dataSource.query('UPDATE passkeys SET counter = $2 WHERE id = $1', [
        row.id,
        verified.authenticationInfo.newCounter,
      ]);
      return row.username_key;
    } catch (error) {
      this.logger.warn(`A passkey assertion did not verify: ${(error as Error).message}`);
      return null;
    }
  }

  private rows(username: string): Promise<PasskeyRow[]> {
    return this.dataSource.query('SELECT * FROM passkeys WHERE username_key = $1 ORDER BY created_at', [
      username.toLowerCase(),
    ]);
  }

  private async remember(
    challenge: string,
    purpose: ChallengePurpose,
    username: string | null,
  ): Promise<void> {
    await this.dataSource.query('DELETE FROM webauthn_challenges WHERE expires_at <= now()');
    await this.dataSource.query(
      'INSERT INTO webauthn_challenges (challenge, purpose, username_key, expires_at) VALUES ($1, $2, $3, $4)',
      [challenge, purpose, username?.toLowerCase() ?? null, new Date(this.clock.now() + CHALLENGE_MS)],
    );
  }

  /** Uses up a challenge we handed out for this purpose (and user): true once, then never again. */
  private async use(challenge: string, purpose: ChallengePurpose, username: string | null): Promise<boolean> {
    const [, removed]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM webauthn_challenges
        WHERE challenge = $1 AND purpose = $2 AND username_key IS NOT DISTINCT FROM $3 AND expires_at > $4`,
      [challenge, purpose, username?.toLowerCase() ?? null, new Date(this.clock.now())],
    );
    return removed > 0;
  }
}

function shape(row: PasskeyRow): Passkey {
  return { id: row.id, name: row.name, createdAt: new Date(row.created_at).toISOString() };
}
