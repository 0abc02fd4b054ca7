import { Inject, Injectable, Logger } from '@nestjs/common';
import type { LoginAnswer, SignInAnswer } from '@alignerflow/domain';
import { setCookie } from '../../common/cookies.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { Metrics } from '../../metrics/metrics.js';
import { withoutSecrets, type UserRecord } from '../../users/users.queries.js';
import { SESSION_COOKIE } from '../../sessions/session-token.js';
import { MfaTokens } from '../mfa/mfa-tokens.js';
import { SecondFactors } from '../mfa/second-factors.js';
import { SessionsService, type SessionOrigin } from '../../sessions/sessions.service.js';
import { clientAddress } from '../../common/client-address.js';
import { KnownDevices } from './known-devices.js';
import { NewSignInMail } from './new-sign-in-mail.js';

/** What a sign-in attempt came to, as the log tells it. */
export type SignInOutcome = 'succeeded' | 'failed' | 'refused';

export function originOf(request: FastifyRequest): SessionOrigin {
  const userAgent = request.headers['user-agent'];
  return { address: clientAddress(request) || null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}

/**
 * The end of every way of signing in (password, second step, passkey): the session and its
 * cookie, the known-device cookie, the email to a user signing in from a new browser, and the log
 * line. Every attempt is logged with the username, client address and user agent, never a secret.
 */
@Injectable()
export class SignInService {
  private readonly logger = new Logger('SignIn');

  constructor(
    private readonly sessions: SessionsService,
    private readonly devices: KnownDevices,
    private readonly mail: NewSignInMail,
    private readonly metrics: Metrics,
    private readonly factors: SecondFactors,
    private readonly mfaTokens: MfaTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * After a right password: a user with a second factor gets an mfaToken and no session yet; one
   * without gets a session (limited to setting a factor up when their role must have one).
   */
  async afterPassword(
    user: UserRecord,
    request: FastifyRequest,
    response: FastifyReply,
    remember: boolean,
  ): Promise<SignInAnswer> {
    const methods = await this.factors.methods(user.username);
    if (!methods.length)
      return this.complete(user, request, response, {
        remember,
        how: 'password',
        setupOnly: this.factors.isRequired(user.role),
      });
    const mfaToken = await this.mfaTokens.issue(user.username, remember);
    this.log('succeeded', user.username, request, 'password', 'second step asked');
    return { mfaRequired: true, mfaToken, methods };
  }

  log(outcome: SignInOutcome, username: string, request: FastifyRequest, how: string, reason?: string): void {
    const { address, userAgent } = originOf(request);
    const entry = {
      msg: `sign-in ${outcome}`,
      username: username.slice(0, 256),
      address,
      userAgent,
      how,
      reason,
    };
    if (outcome === 'succeeded') this.logger.log(entry);
    else this.logger.warn(entry);
    if (outcome === 'failed') this.metrics.loginFailures.inc();
    if (outcome === 'refused' && reason?.startsWith('throttled')) this.metrics.loginThrottles.inc();
  }

  /** Starts the user's session and answers as a sign-in does. */
  async complete(
    user: UserRecord,
    request: FastifyRequest,
    response: FastifyReply,
    options: { remember: boolean; how: string; setupOnly?: boolean },
  ): Promise<LoginAnswer> {
    const origin = originOf(request);
    const known = await this.devices.isKnown(request, user.username);
    const { token, expiresAt } = await this.sessions.start(
      user.username,
      options.remember,
      origin,
      options.setupOnly ?? false,
    );
    setCookie(response, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      // https: TLS here, or X-Forwarded-Proto https from a proxy named in TRUST_PROXY.
      secure: this.config.secureCookies || request.protocol === 'https',
      path: this.config.basePath,
      ...(options.remember ? { expires: expiresAt } : {}),
    });
    await this.devices.remember(request, response, user.username, known);
    if (!known) await this.mail.send(user, origin, new Date());
    this.log('succeeded', user.username, request, options.how);
    return { user: withoutSecrets(user), token };
  }
}
