import type { onRequestHookHandler } from 'fastify';
import type { Logger } from 'pino';
import { randomUUID } from 'node:crypto';
import type { AuthenticatedRequest } from '../common/current-actor.js';

const CORRELATION_HEADER = 'x-correlation-id';

/**
 * Gives every request a correlation id (the caller's, when it sends a sane one) that follows the
 * work into the events it appends and the notifications they cause, and logs each request once.
 */
export function requestContext(logger: Logger | undefined): onRequestHookHandler {
  return (request, reply, done) => {
    const response = reply.raw;
    const given = request.headers[CORRELATION_HEADER];
    const correlationId = typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
    (request as AuthenticatedRequest).correlationId = correlationId;
    response.setHeader(CORRELATION_HEADER, correlationId);
    const started = process.hrtime.bigint();
    response.on('finish', () => {
      if (!logger) return;
      const actor = (request as AuthenticatedRequest).actor;
      logger.info(
        {
          correlationId,
          method: request.method,
          path: request.url.split('?')[0],
          status: response.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          user: actor?.username,
        },
        'request',
      );
    });
    done();
  };
}
