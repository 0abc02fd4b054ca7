import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  HttpStatus,
  Post,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import {
  SIGN_IN_FAILURE_LIMIT,
  SIGN_IN_WINDOW_MS,
  tooManySignInsText,
  USER_TEXTS,
  type Actor,
  type LoginAnswer,
  type MeAnswer,
} from '@alignerflow/domain';
import type { Request, Response } from 'express';
import { Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CurrentActor, Public, type AuthenticatedRequest } from '../common/current-actor.js';
import { Metrics } from '../metrics/metrics.js';
import { AttemptLimiter } from '../security/attempt-limiter.js';
import { DUMMY_HASH_PROMISE, verifyPassword } from '../users/passwords.js';
import { UsersQueries, withoutSecrets } from '../users/users.queries.js';
import { LoginDto } from './auth.dto.js';
import { SESSION_COOKIE } from './auth.guard.js';
import { SessionsService } from './sessions.service.js';

/**
 * The throttling key of a sign-in: the username as the lookup sees it and the client address
 * (the socket's, or X-Forwarded-For as far as TRUST_PROXY trusts it).
 */
export function signInKey(username: string, request: Request): string {
  return `sign-in:${username.trim().toLowerCase()}|${request.ip ?? request.socket.remoteAddress ?? ''}`;
}

@Controller('auth')
export class AuthController {
  constructor(
    private readonly users: UsersQueries,
    private readonly sessions: SessionsService,
    private readonly limiter: AttemptLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Username case-insensitive, password exact; one message for every failure. Each attempt is
   * counted before the password is verified, so a refused pair costs no argon2 work and parallel
   * guesses cannot slip past the limit; a success clears the count.
   */
  @Public()
  @Post('login')
  @HttpCode(200)
  async login(
    @Body() body: LoginDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<LoginAnswer> {
    const key = signInKey(body.username, request);
    const verdict = await this.limiter.consume(key, SIGN_IN_FAILURE_LIMIT, SIGN_IN_WINDOW_MS);
    if (!verdict.allowed) {
      this.metrics.loginThrottles.inc();
      response.setHeader('Retry-After', String(verdict.retryAfterSeconds));
      throw new HttpException(
        { error: tooManySignInsText(verdict.retryAfterSeconds) },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const user = await this.users.find(body.username);
    const matches = await verifyPassword(user?.passwordHash ?? (await DUMMY_HASH_PROMISE), body.password);
    if (!user || !matches) {
      this.metrics.loginFailures.inc();
      throw new UnauthorizedException({ error: USER_TEXTS.invalidLogin });
    }
    await this.limiter.clear(key);
    const remember = body.rememberMe === true;
    const { token, expiresAt } = await this.sessions.start(user.username, remember);
    response.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      // req.secure: TLS here, or X-Forwarded-Proto https from a proxy named in TRUST_PROXY.
      secure: this.config.secureCookies || request.secure,
      path: this.config.basePath,
      ...(remember ? { expires: expiresAt } : {}),
    });
    return { user: withoutSecrets(user), token };
  }

  @Post('logout')
  @HttpCode(204)
  async logout(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    if (request.sessionTokenHash) await this.sessions.end(request.sessionTokenHash);
    response.clearCookie(SESSION_COOKIE, { path: this.config.basePath });
  }

  /** Ends every session of the caller, this one included (a lost phone, a shared computer). */
  @Post('logout-everywhere')
  @HttpCode(204)
  async logoutEverywhere(
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.sessions.endAllFor(actor.username);
    response.clearCookie(SESSION_COOKIE, { path: this.config.basePath });
  }

  @Get('me')
  async me(@CurrentActor() actor: Actor): Promise<MeAnswer> {
    const user = await this.users.find(actor.username);
    if (!user) throw new UnauthorizedException({ error: 'Not signed in.' });
    // No second factor exists yet: the two-step sign-in fills this in.
    return { user: withoutSecrets(user), mfa: { totp: false, passkeys: 0, required: false } };
  }
}
