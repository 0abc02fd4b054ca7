import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { USER_TEXTS, type Actor } from '@alignerflow/domain';
import { CurrentActor } from '../../common/current-actor.js';
import { rejectWith } from '../../common/domain-rejection.js';
import { requireCapability } from '../../common/require-capability.js';
import { UsersQueries } from '../../users/users.queries.js';
import { StepUp } from '../../sessions/step-up.decorator.js';
import { SecondFactors } from './second-factors.js';

/** A Manager takes a user's second factors away (a lost phone): they set one up again at sign-in. */
@Controller('users')
export class MfaResetController {
  constructor(
    private readonly users: UsersQueries,
    private readonly factors: SecondFactors,
  ) {}

  @Post(':username/mfa/reset')
  @StepUp()
  @HttpCode(204)
  async reset(@CurrentActor() actor: Actor, @Param('username') username: string): Promise<void> {
    requireCapability(actor, 'manageUsers', USER_TEXTS.managerOnly);
    const user = await this.users.find(username);
    if (!user) rejectWith('not_found', USER_TEXTS.notFound);
    await this.factors.reset(user.username);
  }
}
