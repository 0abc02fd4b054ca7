import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Actor } from '@alignerflow/domain';
import type { FastifyRequest } from 'fastify';

export interface AuthenticatedRequest extends FastifyRequest {
  actor?: Actor;
  sessionTokenHash?: string;
  /** The public id of the caller's session. */
  sessionId?: string;
  /** The session may only set up a second factor (MFA_REQUIRED_ROLES): /auth/* and public routes. */
  sessionSetupOnly?: boolean;
  correlationId?: string;
}

export const IS_PUBLIC = 'isPublic';
/** Reachable without signing in. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const BEFORE_SECOND_FACTOR = 'beforeSecondFactor';
/** Reachable by a session that must still set up a second factor (the /auth/* controllers). */
export const BeforeSecondFactor = () => SetMetadata(BEFORE_SECOND_FACTOR, true);

export const CurrentActor = createParamDecorator(
  (_: unknown, context: ExecutionContext): Actor =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().actor!,
);

export const CorrelationId = createParamDecorator(
  (_: unknown, context: ExecutionContext): string =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().correlationId!,
);

/** Who asks and the request's correlation id: what every command carries besides its input. */
export interface Caller {
  actor: Actor;
  correlationId: string;
}
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const { actor, correlationId } = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return { actor: actor!, correlationId: correlationId! };
});
