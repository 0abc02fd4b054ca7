import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ACCOUNT_TEXTS, HTTP_SECURITY_TEXTS } from '@alignerflow/domain';
import { randomUUID } from 'node:crypto';
import { BEFORE_SECOND_FACTOR, IS_PUBLIC, type AuthenticatedRequest } from '../common/current-actor.js';
import { hashToken, SessionsService } from '../sessions/sessions.service.js';
import { attachSession, sessionToken } from '../sessions/session-token.js';

/**
 * Every endpoint needs a session (cookie or bearer token) unless marked @Public. The session gate
 * (security/session-gate.ts) has usually looked the session up already, before any body was read;
 * its answer is used as is, so a request costs one lookup.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & { sessionResolved?: boolean }>();
    request.correlationId ??= randomUUID();
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    const token = request.sessionResolved ? undefined : sessionToken(request);
    if (token) {
      request.sessionTokenHash = hashToken(token);
      attachSession(request, await this.sessions.resolve(request.sessionTokenHash));
    }
    if (isPublic) return true;
    if (!request.actor) throw new UnauthorizedException({ error: HTTP_SECURITY_TEXTS.notSignedIn });
    if (
      request.sessionSetupOnly &&
      !this.reflector.getAllAndOverride<boolean>(BEFORE_SECOND_FACTOR, [
        context.getHandler(),
        context.getClass(),
      ])
    )
      throw new ForbiddenException({ error: ACCOUNT_TEXTS.setUpTwoStepFirst });
    return true;
  }
}
