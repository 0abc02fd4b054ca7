import type { AuthenticatedRequest } from '../common/current-actor.js';
import type { ResolvedSession } from './sessions.service.js';

export const SESSION_COOKIE = 'af_session';

export function sessionToken(request: AuthenticatedRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return request.cookies?.[SESSION_COOKIE] || undefined;
}

/** What the request knows of its session from here on. */
export function attachSession(request: AuthenticatedRequest, session: ResolvedSession | undefined): void {
  request.actor = session?.actor;
  request.sessionId = session?.id;
  request.sessionSetupOnly = session?.setupOnly;
}
