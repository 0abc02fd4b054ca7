import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Actor } from '@alignerflow/domain';
import type { Request } from 'express';

export interface AuthenticatedRequest extends Request {
  actor?: Actor;
  sessionTokenHash?: string;
  correlationId?: string;
}

export const IS_PUBLIC = 'isPublic';
/** Reachable without signing in. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

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
