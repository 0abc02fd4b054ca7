import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  HttpCode,
  Post,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import {
  ACCOUNT_TEXTS,
  type Actor,
  type RecoveryCodesAnswer,
  type SignInAnswer,
  type TotpSetupAnswer,
} from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BeforeSecondFactor, CurrentActor, Public } from '../../common/current-actor.js';
import { UsersQueries } from '../../users/users.queries.js';
import { PasskeysService } from '../passkeys/passkeys.service.js';
import { SignInService } from '../sign-in/sign-in.service.js';
import { MfaLoginDto, TotpConfirmDto } from './mfa.dto.js';
import { MfaTokens } from './mfa-tokens.js';
import { SecondFactors } from './second-factors.js';

export const ONE_SECOND_STEP = 'Send one of code, recoveryCode or credential.';

/** The authenticator app (api.md Accounts) and the second step of a sign-in. */
@Controller('auth')
@BeforeSecondFactor()
export class MfaController {
  constructor(
    private readonly factors: SecondFactors,
    private readonly tokens: MfaTokens,
    private readonly passkeys: PasskeysService,
    private readonly users: UsersQueries,
    private readonly signIn: SignInService,
  ) {}

  @Post('mfa/totp')
  @HttpCode(200)
  beginTotp(@CurrentActor() actor: Actor): Promise<TotpSetupAnswer> {
    return this.factors.beginTotp(actor.username);
  }

  @Post('mfa/totp/confirm')
  @HttpCode(200)
  async confirmTotp(
    @CurrentActor() actor: Actor,
    @Body() body: TotpConfirmDto,
  ): Promise<RecoveryCodesAnswer> {
    const recoveryCodes = await this.factors.confirmTotp(actor.username, body.code);
    if (!recoveryCodes) throw new BadRequestException({ error: ACCOUNT_TEXTS.codeInvalid });
    return { recoveryCodes };
  }

  @Delete('mfa/totp')
  @HttpCode(204)
  async removeTotp(@CurrentActor() actor: Actor): Promise<void> {
    await this.factors.removeTotp(actor.username, actor.role);
  }

  /** The second step: one code (or recovery code, or passkey) per mfaToken, at most 5 wrong ones. */
  @Public()
  @Post('login/mfa')
  @HttpCode(200)
  async loginMfa(
    @Body() body: MfaLoginDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<SignInAnswer> {
    const given = [body.code, body.recoveryCode, body.credential].filter((value) => value !== undefined);
    if (given.length !== 1) throw new BadRequestException({ error: ONE_SECOND_STEP });
    const token = await this.tokens.find(body.mfaToken);
    const user = token && (await this.users.find(token.username_key));
    if (!token || !user) {
      this.signIn.log('refused', token?.username_key ?? '', request, 'second step', 'sign in again');
      throw new UnauthorizedException({ error: ACCOUNT_TEXTS.signInAgain });
    }
    let how: string;
    let valid: boolean;
    if (body.code !== undefined) {
      how = 'totp';
      valid = await this.factors.checkTotp(user.username, body.code);
    } else if (body.recoveryCode !== undefined) {
      how = 'recovery code';
      valid = await this.factors.useRecoveryCode(user.username, body.recoveryCode);
    } else {
      how = 'passkey';
      valid =
        !!token.challenge &&
        (await this.passkeys.verifyAssertion(body.credential, {
          challenge: token.challenge,
          username: user.username,
        })) !== null;
    }
    if (!valid) {
      await this.tokens.fail(body.mfaToken);
      this.signIn.log('failed', user.username, request, how, 'wrong code');
      throw new UnauthorizedException({ error: ACCOUNT_TEXTS.codeInvalid });
    }
    if (!(await this.tokens.consume(body.mfaToken))) {
      this.signIn.log('refused', user.username, request, how, 'token used already');
      throw new UnauthorizedException({ error: ACCOUNT_TEXTS.signInAgain });
    }
    return this.signIn.complete(user, request, response, { remember: token.remember, how });
  }
}
