import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  can,
  checkEmail,
  checkNotify,
  checkNewUser,
  parseRole,
  publicUser,
  sameUsername,
  USER_TEXTS,
  type Actor,
  type User,
  type UserState,
} from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CorrelationId, CurrentActor, type AuthenticatedRequest } from '../common/current-actor.js';
import { DomainRejection, rejectWith } from '../common/domain-rejection.js';
import { withEtag } from '../common/etag.js';
import { requireCapability } from '../common/require-capability.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { StepUp } from '../sessions/step-up.decorator.js';
import { StepUpService } from '../sessions/step-up.service.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { newPasswordProblem } from '../common/password-policy.js';
import { UserCommandService } from './user-command.service.js';
import { CreateUserDto, UpdateUserDto } from './users.dto.js';
import { UsersQueries, withoutSecrets } from './users.queries.js';

@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersQueries,
    private readonly commands: UserCommandService,
    private readonly sessions: SessionsService,
    private readonly stepUp: StepUpService,
  ) {}

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<User[] | undefined> {
    requireCapability(actor, 'listUsers', 'Doctors cannot list users.');
    return withEtag(request, response, await this.users.listTag(), async () =>
      (await this.users.list()).map(withoutSecrets),
    );
  }

  @Get(':username')
  async get(@CurrentActor() actor: Actor, @Param('username') username: string): Promise<User> {
    if (actor.role !== 'Manager' && !sameUsername(actor.username, username)) {
      rejectWith('forbidden', 'You can only read your own user.');
    }
    const user = await this.users.find(username);
    if (!user) rejectWith('not_found', USER_TEXTS.notFound);
    return withoutSecrets(user);
  }

  @Post()
  @StepUp()
  async create(
    @CurrentActor() actor: Actor,
    @CorrelationId() correlationId: string,
    @Body() body: CreateUserDto,
  ): Promise<User> {
    requireCapability(actor, 'manageUsers', USER_TEXTS.managerOnly);
    const checked = checkNewUser(body);
    if ('rejection' in checked) throw new DomainRejection(checked.rejection);
    const { username, password, role, email } = checked.value;
    // The contract orders the checks: empty fields, duplicate username, then the password rule.
    // The command still decides the duplicate again, atomically.
    if (await this.users.find(username)) rejectWith('conflict', USER_TEXTS.taken(username));
    if (await this.users.wasDeleted(username)) rejectWith('conflict', USER_TEXTS.usernameOfDeletedUser);
    const weak = newPasswordProblem(username, password);
    if (weak) rejectWith('invalid', weak);
    const user = { username, role, email, passwordHash: await hashPassword(password) };
    const state = await this.commands.execute(username, { type: 'CreateUser', user }, actor, correlationId);
    return publicUser(state);
  }

  @Put(':username')
  async update(
    @CurrentActor() actor: Actor,
    @CorrelationId() correlationId: string,
    @Param('username') username: string,
    @Body() body: UpdateUserDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<User> {
    const changes: Parameters<UserCommandService['execute']>[1] & { type: 'UpdateUser' } = {
      type: 'UpdateUser',
      changes: {},
    };
    if (body.activationSoundEnabled !== undefined)
      changes.changes.activationSoundEnabled = body.activationSoundEnabled;
    if (body.email !== undefined) {
      const email = checkEmail(body.email);
      if ('error' in email) rejectWith('invalid', email.error);
      changes.changes.email = email.value;
    }
    if (body.notify !== undefined) {
      const current = await this.users.find(username);
      const notify = checkNotify(body.notify, current?.notify);
      if ('error' in notify) rejectWith('invalid', notify.error);
      changes.changes.notify = notify.value;
    }
    if (body.role !== undefined) {
      const role = parseRole(body.role);
      if (!role) rejectWith('invalid', USER_TEXTS.unknownRole(body.role));
      changes.changes.role = role;
    }
    const self = sameUsername(actor.username, username);
    // Refused before any password work, which costs CPU (the command decides this again).
    if (!self && !can(actor.role, 'manageUsers')) rejectWith('forbidden', USER_TEXTS.managerOnly);
    // A Manager taking over another account (its password) or its powers (its role): step-up.
    if (!self && (body.password !== undefined || body.role !== undefined)) await this.stepUp.require(request);
    if (body.password !== undefined) {
      if (!body.password.trim()) rejectWith('invalid', USER_TEXTS.passwordEmpty);
      const weak = newPasswordProblem(username, body.password);
      if (weak) rejectWith('invalid', weak);
      // Someone at an unattended, signed-in screen must not be able to take the account over.
      if (self) {
        const current = await this.users.find(username);
        const matches =
          !!current &&
          body.currentPassword !== undefined &&
          (await verifyPassword(current.passwordHash, body.currentPassword));
        if (!matches) rejectWith('invalid', USER_TEXTS.currentPasswordWrong);
      }
      changes.changes.passwordHash = await hashPassword(body.password);
    }
    const state: UserState = await this.commands.execute(username, changes, actor, correlationId);
    // Whoever knew the old password is signed out everywhere; the one who changed it stays.
    if (body.password !== undefined)
      await this.sessions.endAllFor(username, self ? request.sessionTokenHash : undefined);
    return publicUser(state);
  }

  /** A Manager signs a user out everywhere (a lost device, someone leaving the lab). */
  @Post(':username/sessions/end')
  @HttpCode(204)
  async endSessions(@CurrentActor() actor: Actor, @Param('username') username: string): Promise<void> {
    requireCapability(actor, 'manageUsers', USER_TEXTS.managerOnly);
    if (!(await this.users.find(username))) rejectWith('not_found', USER_TEXTS.notFound);
    await this.sessions.endAllFor(username);
  }

  @Delete(':username')
  @StepUp()
  @HttpCode(204)
  async remove(
    @CurrentActor() actor: Actor,
    @CorrelationId() correlationId: string,
    @Param('username') username: string,
  ): Promise<void> {
    await this.commands.execute(username, { type: 'DeleteUser' }, actor, correlationId);
    await this.sessions.endAllFor(username);
  }
}
