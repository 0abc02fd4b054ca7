import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { HTTP_SECURITY_TEXTS } from '@alignerflow/domain';
import { randomUUID } from 'node:crypto';
import { IS_PUBLIC, type AuthenticatedRequest } from '../common/current-actor.js';
import { hashToken, SessionsService } from './sessions.service.js';

export const SESSION_COOKIE = 'af_session';

export function sessionToken(request: AuthenticatedRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return (request.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE] || undefined;
}

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
      request.actor = await this.sessions.resolve(request.sessionTokenHash);
    }
    if (isPublic || request.actor) return true;
    throw new UnauthorizedException({ error: HTTP_SECURITY_TEXTS.notSignedIn });
  }
}
