import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { chooseLogFormat, terminalLines } from './terminal-lines.js';

/** How long a log line may wait in the buffer before it is written. */
const FLUSH_INTERVAL_MS = 200;
/** Written at once when this much has gathered. */
const BUFFER_BYTES = 8 * 1024;

let stdout: GatheredLines | undefined;

/**
 * Lines gathered as they come and handed to `out` joined, BUFFER_BYTES or so at a time. sonic-boom
 * gathers by appending each line to the text it holds and measuring that text's bytes again,
 * which flattens it: a copy of all that has gathered, per line, which made the request line the
 * most allocating step of a command (docs/performance.md). Here a line is kept as it is until the
 * join.
 */
class GatheredLines implements DestinationStream {
  private lines: string[] = [];
  private length = 0;

  constructor(private readonly out: DestinationStream & { flushSync(): void }) {}

  write(line: string): void {
    this.lines.push(line);
    this.length += line.length;
    if (this.length >= BUFFER_BYTES) this.flush();
  }

  /** What has gathered, handed on to be written. */
  flush(): void {
    if (!this.lines.length) return;
    const text = this.lines.join('');
    this.lines = [];
    this.length = 0;
    this.out.write(text);
  }

  flushSync(): void {
    this.flush();
    this.out.flushSync();
  }
}

/**
 * stdout, buffered: a write(2) per line (one request line per command) was about a tenth of a
 * command's CPU under load. Lines go out every FLUSH_INTERVAL_MS or when BUFFER_BYTES gather, and
 * synchronously when the process exits; a SIGKILL may lose the last FLUSH_INTERVAL_MS of lines.
 * One per process, shared by every app.
 */
function bufferedStdout(): DestinationStream {
  if (!stdout) {
    // Writes what it is given at once, asynchronously (pino flushes it at exit too).
    const lines = new GatheredLines(pino.destination({ dest: 1, sync: false, minLength: 0 }));
    setInterval(() => {
      try {
        lines.flush();
      } catch {
        // Not open yet or already closed at exit: the next tick or the exit flush writes it.
      }
    }, FLUSH_INTERVAL_MS).unref();
    // Before pino's own exit handlers (registered with the destination), which flush it and, once
    // the event loop has emptied, end it: the gathered lines must reach it first.
    process.prependListener('beforeExit', () => lines.flush());
    process.prependListener('exit', () => {
      try {
        lines.flushSync();
      } catch {
        // stdout already closed: nothing can take the lines.
      }
    });
    stdout = lines;
  }
  return stdout;
}

/** Where the root logger writes; `process.stdout` but in tests. */
export interface LogOutput {
  isTTY?: boolean;
  write(text: string): unknown;
  hasColors?(): boolean;
}

/**
 * One entry per line on stdout, with the context (Nest's "logger name") as a field: JSON lines
 * for collectors, or readable lines when stdout is a terminal (colored if it has colors; a
 * terminal's writes are synchronous, so these lines need no buffer).
 */
export function createRootLogger(level = 'info', stdout: LogOutput = process.stdout): Logger {
  return pino(
    {
      level,
      base: { service: 'alignerflow', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    chooseLogFormat(stdout) === 'terminal'
      ? terminalLines(stdout, stdout.hasColors?.() ?? false)
      : bufferedStdout(),
  );
}

/** Nest's logger interface on top of pino, so framework and application logs share one format. */
export class PinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  /** A plain object with `msg` is an entry with fields (a sign-in's username, address, user agent). */
  log(message: unknown, context?: string) {
    if (message && typeof message === 'object' && typeof (message as { msg?: unknown }).msg === 'string') {
      const { msg, ...fields } = message as { msg: string };
      this.logger.info({ context, ...fields }, msg);
    } else this.logger.info({ context }, String(message));
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
