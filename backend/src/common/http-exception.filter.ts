import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { LimitReached } from './limit-reached.js';

/** Every error answer is `{ error, details? }`; anything unexpected is a logged 500 without internals. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    if (exception instanceof HttpException) {
      if (exception instanceof LimitReached)
        response.setHeader('Retry-After', String(Math.max(1, exception.retryAfterSeconds)));
      response.status(exception.getStatus()).json(errorBody(exception));
      return;
    }
    if (isUnstorableText(exception)) {
      response.status(400).json({ error: 'The request contains characters that cannot be stored.' });
      return;
    }
    if (isDatabaseDown(exception)) {
      response.status(503).json({ error: 'The database is unavailable. Try again shortly.' });
      return;
    }
    this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    response.status(500).json({ error: 'Internal server error.' });
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
