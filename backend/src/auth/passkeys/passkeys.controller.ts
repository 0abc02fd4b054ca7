import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { ACCOUNT_TEXTS, type Actor, type Passkey, type SignInAnswer } from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BeforeSecondFactor, CurrentActor, Public } from '../../common/current-actor.js';
import { UsersQueries } from '../../users/users.queries.js';
import { PasskeyLoginDto, PasskeyLoginOptionsDto, PasskeyRegisterDto } from '../mfa/mfa.dto.js';
import { MfaTokens } from '../mfa/mfa-tokens.js';
import { SecondFactors } from '../mfa/second-factors.js';
import { SignInService } from '../sign-in/sign-in.service.js';
import { PasskeysService } from './passkeys.service.js';

/** Passkeys (api.md Accounts): add, list and remove one's own; sign in with one, alone or as a second step. */
@Controller('auth/passkeys')
@BeforeSecondFactor()
export class PasskeysController {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly factors: SecondFactors,
    private readonly tokens: MfaTokens,
    private readonly users: UsersQueries,
    private readonly signIn: SignInService,
  ) {}

  @Post('options')
  @HttpCode(200)
  registrationOptions(@CurrentActor() actor: Actor) {
    return this.passkeys.registrationOptions(actor.username);
  }

  @Post()
  async register(@CurrentActor() actor: Actor, @Body() body: PasskeyRegisterDto): Promise<Passkey> {
    const passkey = await this.passkeys.register(actor.username, body.credential, body.name.trim());
    if (!passkey) throw new BadRequestException({ error: ACCOUNT_TEXTS.passkeyNotVerified });
    return passkey;
  }

  @Get()
  list(@CurrentActor() actor: Actor): Promise<Passkey[]> {
    return this.passkeys.list(actor.username);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    if (!(await this.passkeys.remove(actor.username, id)))
      throw new NotFoundException({ error: 'Passkey not found.' });
    await this.factors.afterRemoval(actor.username, actor.role);
  }

  /** `{}`: any passkey of this site may sign in; `{mfaToken}`: that user's, as the second step. */
  @Public()
  @Post('login/options')
  @HttpCode(200)
  async loginOptions(@Body() body: PasskeyLoginOptionsDto) {
    if (body.mfaToken === undefined) return this.passkeys.challengeFor('login', null);
    const token = await this.tokens.find(body.mfaToken);
    if (!token) throw new UnauthorizedException({ error: ACCOUNT_TEXTS.signInAgain });
    const options = await this.passkeys.authenticationOptions(token.username_key);
    await this.tokens.setChallenge(body.mfaToken, options.challenge);
    return options;
  }

  /** A passkey alone signs in (it is something one has, unlocked by something one is or knows). */
  @Public()
  @Post('login')
  @HttpCode(200)
  async login(
    @Body() body: PasskeyLoginDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<SignInAnswer> {
    const usernameKey = await this.passkeys.verifyAssertion(body.credential, { purpose: 'login' });
    const user = usernameKey ? await this.users.find(usernameKey) : undefined;
    if (!user) {
      this.signIn.log('failed', usernameKey ?? '', request, 'passkey', 'not recognised');
      throw new UnauthorizedException({ error: ACCOUNT_TEXTS.passkeyNotRecognised });
    }
    return this.signIn.complete(user, request, response, { remember: false, how: 'passkey' });
  }
}
