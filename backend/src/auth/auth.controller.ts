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
  tooManySignInsText,
  USER_TEXTS,
  type Actor,
  type MeAnswer,
  type SignInAnswer,
} from '@alignerflow/domain';
import { clearCookie } from '../common/cookies.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import {
  BeforeSecondFactor,
  CurrentActor,
  Public,
  type AuthenticatedRequest,
} from '../common/current-actor.js';
import { DUMMY_HASH_PROMISE, verifyPassword } from '../users/passwords.js';
import { UsersQueries, withoutSecrets } from '../users/users.queries.js';
import { LoginDto } from './auth.dto.js';
import { SESSION_COOKIE } from '../sessions/session-token.js';
import { SecondFactors } from './mfa/second-factors.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { addressGroup, clientAddress } from '../common/client-address.js';
import { KnownDevices } from './sign-in/known-devices.js';
import { SignInService } from './sign-in/sign-in.service.js';
import { SignInThrottle } from './sign-in/sign-in-throttle.js';

@Controller('auth')
@BeforeSecondFactor()
export class AuthController {
  constructor(
    private readonly users: UsersQueries,
    private readonly sessions: SessionsService,
    private readonly throttle: SignInThrottle,
    private readonly devices: KnownDevices,
    private readonly signIn: SignInService,
    private readonly factors: SecondFactors,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Username case-insensitive, password exact; one message for every failure. The attempt is
   * counted by every sign-in limit before the password is verified (sign-in-throttle.ts).
   */
  @Public()
  @Post('login')
  @HttpCode(200)
  async login(
    @Body() body: LoginDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<SignInAnswer> {
    const knownDevice = await this.devices.isKnown(request, body.username);
    const admission = await this.throttle.admit(
      body.username,
      addressGroup(clientAddress(request)),
      knownDevice,
    );
    if (!admission.allowed) {
      this.signIn.log('refused', body.username, request, 'password', `throttled (${admission.rule})`);
      response.header('Retry-After', String(admission.retryAfterSeconds));
      throw new HttpException(
        { error: tooManySignInsText(admission.retryAfterSeconds) },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const user = await this.users.find(body.username);
    const matches = await verifyPassword(user?.passwordHash ?? (await DUMMY_HASH_PROMISE), body.password);
    await this.throttle.settle(admission, !!user && matches);
    if (!user || !matches) {
      this.signIn.log('failed', body.username, request, 'password', user ? 'wrong password' : 'unknown user');
      throw new UnauthorizedException({ error: USER_TEXTS.invalidLogin });
    }
    return this.signIn.afterPassword(user, request, response, body.rememberMe === true);
  }

  @Post('logout')
  @HttpCode(204)
  async logout(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<void> {
    if (request.sessionTokenHash) await this.sessions.end(request.sessionTokenHash);
    clearCookie(response, SESSION_COOKIE, { path: this.config.basePath });
  }

  /** Ends every session of the caller, this one included (a lost phone, a shared computer). */
  @Post('logout-everywhere')
  @HttpCode(204)
  async logoutEverywhere(
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<void> {
    await this.sessions.endAllFor(actor.username);
    clearCookie(response, SESSION_COOKIE, { path: this.config.basePath });
  }

  @Get('me')
  async me(@CurrentActor() actor: Actor, @Req() request: AuthenticatedRequest): Promise<MeAnswer> {
    const user = await this.users.find(actor.username);
    const endsAt = request.sessionTokenHash ? await this.sessions.endOf(request.sessionTokenHash) : null;
    if (!user || !endsAt) throw new UnauthorizedException({ error: 'Not signed in.' });
    return {
      user: withoutSecrets(user),
      mfa: await this.factors.status(user.username, user.role),
      expiresAt: endsAt.toISOString(),
    };
  }
}
