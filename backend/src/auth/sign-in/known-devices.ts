import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { setCookie } from '../../common/cookies.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { hashToken } from '../../sessions/sessions.service.js';

export const DEVICE_COOKIE = 'af_device';
/** A browser stays known this long after its last sign-in. */
export const KNOWN_DEVICE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Browsers that signed a user in before, by an httpOnly cookie holding a random token of which
 * only the hash is stored, bound to that user: it cannot be forged, and one user's cookie says
 * nothing about another user. Renewed (same token, 30 days again) at every sign-in.
 */
@Injectable()
export class KnownDevices {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether the request's browser holds this user's known-device cookie. */
  async isKnown(request: FastifyRequest, username: string): Promise<boolean> {
    const token = deviceToken(request);
    if (!token) return false;
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM known_devices WHERE token_hash = $1 AND username_key = $2 AND expires_at > now()',
      [hashToken(token), username.trim().toLowerCase()],
    );
    return rows.length > 0;
  }

  /** After a sign-in: the browser is (still) known for this user for another 30 days. */
  async remember(
    request: FastifyRequest,
    response: FastifyReply,
    username: string,
    known: boolean,
  ): Promise<void> {
    const token = (known && deviceToken(request)) || randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + KNOWN_DEVICE_MS);
    await this.dataSource.query(
      `INSERT INTO known_devices (token_hash, username_key, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (token_hash) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [hashToken(token), username.toLowerCase(), expiresAt],
    );
    setCookie(response, DEVICE_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.secureCookies || request.protocol === 'https',
      path: this.config.basePath,
      expires: expiresAt,
    });
  }
}

function deviceToken(request: FastifyRequest): string | undefined {
  const token = request.cookies?.[DEVICE_COOKIE];
  return typeof token === 'string' && token.length <= 128 ? token : undefined;
}
