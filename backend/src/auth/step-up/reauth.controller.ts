import {
  BadRequestException,
  Body,
  Controller,
  HttpCode,
  HttpException,
  HttpStatus,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import {
  ACCOUNT_TEXTS,
  SIGN_IN_FAILURE_LIMIT,
  SIGN_IN_WINDOW_MS,
  tooManySignInsText,
} from '@alignerflow/domain';
import type { FastifyReply } from 'fastify';
import { BeforeSecondFactor, type AuthenticatedRequest } from '../../common/current-actor.js';
import { AttemptLimiter } from '../../security/attempt-limiter.js';
import { verifyPassword } from '../../users/passwords.js';
import { UsersQueries } from '../../users/users.queries.js';
import { ReauthDto } from '../mfa/mfa.dto.js';
import { SecondFactors } from '../mfa/second-factors.js';
import { PasskeysService } from '../passkeys/passkeys.service.js';
import { SignInService } from '../sign-in/sign-in.service.js';
import { StepUpService } from '../../sessions/step-up.service.js';

export const ONE_PROOF = 'Send one of password, code or credential.';

/** Confirming it is you (api.md Accounts, step-up): the password, a code, or a passkey. */
@Controller('auth/reauth')
@BeforeSecondFactor()
export class ReauthController {
  constructor(
    private readonly stepUp: StepUpService,
    private readonly users: UsersQueries,
    private readonly factors: SecondFactors,
    private readonly passkeys: PasskeysService,
    private readonly limiter: AttemptLimiter,
    private readonly signIn: SignInService,
  ) {}

  /** Options of a passkey assertion for `POST /auth/reauth {credential}`: the caller's passkeys. */
  @Post('options')
  @HttpCode(200)
  options(@Req() request: AuthenticatedRequest) {
    return this.passkeys.challengeFor('reauth', request.actor!.username);
  }

  /**
   * 204 and the session counts as proved for the next 10 minutes. Wrong answers are limited like
   * sign-ins (5 per session within 15 minutes): a session left open is not a way to guess.
   */
  @Post()
  @HttpCode(204)
  async reauth(
    @Req() request: AuthenticatedRequest,
    @Body() body: ReauthDto,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<void> {
    const given = [body.password, body.code, body.credential].filter((value) => value !== undefined);
    if (given.length !== 1) throw new BadRequestException({ error: ONE_PROOF });
    const username = request.actor!.username;
    const key = `reauth:${request.sessionId}`;
    const verdict = await this.limiter.consume(key, SIGN_IN_FAILURE_LIMIT, SIGN_IN_WINDOW_MS);
    if (!verdict.allowed) {
      this.signIn.log('refused', username, request, 'confirmation', 'throttled');
      response.header('Retry-After', String(verdict.retryAfterSeconds));
      throw new HttpException(
        { error: tooManySignInsText(verdict.retryAfterSeconds) },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    let how: string;
    let valid: boolean;
    if (body.password !== undefined) {
      how = 'password';
      const user = await this.users.find(username);
      valid = !!user && (await verifyPassword(user.passwordHash, body.password));
    } else if (body.code !== undefined) {
      how = 'totp';
      valid = await this.factors.checkTotp(username, body.code);
    } else {
      how = 'passkey';
      valid =
        (await this.passkeys.verifyAssertion(body.credential, { purpose: 'reauth', username })) !== null;
    }
    if (!valid) {
      this.signIn.log('failed', username, request, `confirmation by ${how}`);
      const error =
        how === 'password'
          ? ACCOUNT_TEXTS.passwordWrong
          : how === 'totp'
            ? ACCOUNT_TEXTS.codeInvalid
            : ACCOUNT_TEXTS.passkeyNotRecognised;
      throw new BadRequestException({ error });
    }
    await this.limiter.clear(key);
    await this.stepUp.prove(request.sessionTokenHash!);
  }
}
