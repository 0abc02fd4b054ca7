import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  checkEmail,
  checkNewUser,
  parseRole,
  publicUser,
  sameUsername,
  USER_TEXTS,
  type Actor,
  type UserState,
} from '@alignerflow/domain';
import type { Request, Response } from 'express';
import { CorrelationId, CurrentActor } from '../common/current-actor.js';
import { DomainRejection, rejectWith } from '../common/domain-rejection.js';
import { withEtag } from '../common/etag.js';
import { requireCapability } from '../common/require-capability.js';
import { SessionsService } from '../auth/sessions.service.js';
import { hashPassword } from './passwords.js';
import { UserCommandService } from './user-command.service.js';
import { CreateUserDto, UpdateUserDto } from './users.dto.js';
import { UsersQueries, withoutSecrets } from './users.queries.js';

@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersQueries,
    private readonly commands: UserCommandService,
    private readonly sessions: SessionsService,
  ) {}

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    requireCapability(actor, 'listUsers', 'Doctors cannot list users.');
    return withEtag(request, response, await this.users.listTag(), async () =>
      (await this.users.list()).map(withoutSecrets),
    );
  }

  @Get(':username')
  async get(@CurrentActor() actor: Actor, @Param('username') username: string) {
    if (actor.role !== 'Manager' && !sameUsername(actor.username, username)) {
      rejectWith('forbidden', 'You can only read your own user.');
    }
    const user = await this.users.find(username);
    if (!user) rejectWith('not_found', USER_TEXTS.notFound);
    return withoutSecrets(user);
  }

  @Post()
  async create(
    @CurrentActor() actor: Actor,
    @CorrelationId() correlationId: string,
    @Body() body: CreateUserDto,
  ) {
    requireCapability(actor, 'manageUsers', USER_TEXTS.managerOnly);
    const checked = checkNewUser(body);
    if ('rejection' in checked) throw new DomainRejection(checked.rejection);
    const { username, password, role, email } = checked.value;
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
  ) {
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
    if (body.role !== undefined) {
      const role = parseRole(body.role);
      if (!role) rejectWith('invalid', USER_TEXTS.unknownRole(body.role));
      changes.changes.role = role;
    }
    if (body.password !== undefined) {
      if (!body.password.trim()) rejectWith('invalid', 'Password cannot be empty.');
      changes.changes.passwordHash = await hashPassword(body.password);
    }
    const state: UserState = await this.commands.execute(username, changes, actor, correlationId);
    return publicUser(state);
  }

  @Delete(':username')
  @HttpCode(204)
  async remove(
    @CurrentActor() actor: Actor,
    @CorrelationId() correlationId: string,
    @Param('username') username: string,
  ) {
    await this.commands.execute(username, { type: 'DeleteUser' }, actor, correlationId);
    await this.sessions.endAllFor(username);
  }
}
