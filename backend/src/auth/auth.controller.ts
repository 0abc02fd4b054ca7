import { Body, Controller, Get, HttpCode, Post, Req, Res, UnauthorizedException } from '@nestjs/common';
import { USER_TEXTS, type Actor } from '@alignerflow/domain';
import type { Response } from 'express';
import { Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CurrentActor, Public, type AuthenticatedRequest } from '../common/current-actor.js';
import { DUMMY_HASH_PROMISE, verifyPassword } from '../users/passwords.js';
import { UsersQueries, withoutSecrets } from '../users/users.queries.js';
import { LoginDto } from './auth.dto.js';
import { SESSION_COOKIE } from './auth.guard.js';
import { SessionsService } from './sessions.service.js';

@Controller('auth')
export class AuthController {
  constructor(
    private readonly users: UsersQueries,
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Username case-insensitive, password exact; one message for every failure. */
  @Public()
  @Post('login')
  @HttpCode(200)
  async login(@Body() body: LoginDto, @Res({ passthrough: true }) response: Response) {
    const user = await this.users.find(body.username);
    const matches = await verifyPassword(user?.passwordHash ?? (await DUMMY_HASH_PROMISE), body.password);
    if (!user || !matches) throw new UnauthorizedException({ error: USER_TEXTS.invalidLogin });
    const remember = body.rememberMe === true;
    const { token, expiresAt } = await this.sessions.start(user.username, remember);
    response.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.secureCookies,
      path: this.config.basePath,
      ...(remember ? { expires: expiresAt } : {}),
    });
    return { user: withoutSecrets(user), token };
  }

  @Post('logout')
  @HttpCode(204)
  async logout(@Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: Response) {
    if (request.sessionTokenHash) await this.sessions.end(request.sessionTokenHash);
    response.clearCookie(SESSION_COOKIE, { path: this.config.basePath });
  }

  @Get('me')
  async me(@CurrentActor() actor: Actor) {
    const user = await this.users.find(actor.username);
    if (!user) throw new UnauthorizedException({ error: 'Not signed in.' });
    return { user: withoutSecrets(user) };
  }
}
