import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LimitReached } from './limit-reached.js';

/** Every error answer is `{ error, details? }`; anything unexpected is a logged 500 without internals. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (reply.sent || reply.raw.headersSent) return;
    if (exception instanceof HttpException) {
      if (exception instanceof LimitReached)
        reply.header('Retry-After', String(Math.max(1, exception.retryAfterSeconds)));
      void reply.code(exception.getStatus()).send(errorBody(exception));
      return;
    }
    if (isUnstorableText(exception)) {
      void reply.code(400).send({ error: 'The request contains characters that cannot be stored.' });
      return;
    }
    if (isDatabaseDown(exception)) {
      void reply.code(503).send({ error: 'The database is unavailable. Try again shortly.' });
      return;
    }
    const status = frameworkStatus(exception);
    if (status !== undefined) {
      void reply.code(status).send({ error: (exception as Error).message });
      return;
    }
    this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    void reply.code(500).send({ error: 'Internal server error.' });
  }
}

function errorBody(exception: HttpException): { error: string; details?: unknown; reauth?: true } {
  const body = exception.getResponse();
  if (typeof body === 'string') return { error: body };
  const { error, message, details, reauth } = body as {
    error?: unknown;
    message?: unknown;
    details?: unknown;
    reauth?: unknown;
  };
  // A step-up refusal tells the app to ask the user to confirm it is them (api.md Accounts).
  if (reauth === true) return { error: String(error), reauth: true };
  // Nest's own exceptions put the text in `message` and the status phrase in `error`.
  const text = typeof message === 'string' ? message : Array.isArray(message) ? String(message[0]) : error;
  const result: { error: string; details?: unknown } = { error: String(text ?? exception.message) };
  if (details) result.details = details;
  else if (Array.isArray(message)) result.details = message;
  return result;
}

/**
 * An error of Fastify's own about the request (a malformed URL, an over-long parameter): a 4xx
 * with a message written for the caller.
 */
function frameworkStatus(exception: unknown): number | undefined {
  const { statusCode, code } = (exception ?? {}) as { statusCode?: unknown; code?: unknown };
  if (typeof code !== 'string' || !code.startsWith('FST_')) return undefined;
  return typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 ? statusCode : undefined;
}

function isDatabaseDown(exception: unknown): boolean {
  const code = (exception as { code?: string })?.code;
  return (
    code === 'ECONNREFUSED' || code === '57P01' || code === '57P03' || code === '08006' || code === '08001'
  );
}

/**
 * PostgreSQL refuses text it cannot hold (a NUL character in an id, a username or a QR payload):
 * that is the caller's input, not a fault of the server.
 */
function isUnstorableText(exception: unknown): boolean {
  const { code, driverError } = (exception ?? {}) as { code?: string; driverError?: { code?: string } };
  return [code, driverError?.code].some((candidate) => candidate === '22021' || candidate === '22P05');
}
