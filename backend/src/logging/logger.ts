import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/** One JSON line per entry on stdout, with the context (Nest's "logger name") as a field. */
export function createRootLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service: 'alignerflow', pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

/** Nest's logger interface on top of pino, so framework and application logs share one format. */
export class PinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
