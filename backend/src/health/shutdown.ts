import type { LoggerService } from '@nestjs/common';
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Runs `shutdown` on the first SIGTERM or SIGINT and exits 0 when it is done. It is bounded: past
 * `timeoutMs` the process exits 1 anyway, logged, so an orchestrator never has to SIGKILL. Ctrl-C
 * twice (a second SIGINT) exits at once; a repeated SIGTERM, as some supervisors send, changes nothing.
 */
export function onTerminationSignal(options: {
  logger: LoggerService;
  timeoutMs: number;
  shutdown: (signal: NodeJS.Signals) => Promise<void>;
}): void {
  const { logger, timeoutMs, shutdown } = options;
  let started = false;
  const handle = (signal: NodeJS.Signals) => {
    if (started) {
      if (signal !== 'SIGINT') return;
      logger.warn('SIGINT again during the shutdown: exiting now');
      process.exit(1);
    }
    started = true;
    const since = Date.now();
    logger.log(`${signal}: shutting down gracefully (at most ${timeoutMs} ms)`);
    const force = setTimeout(() => {
      logger.error(`The shutdown took longer than ${timeoutMs} ms (SHUTDOWN_TIMEOUT_MS): exiting now`);
      process.exit(1);
    }, timeoutMs);
    shutdown(signal).then(
      () => {
        clearTimeout(force);
        logger.log(`Shut down cleanly in ${Date.now() - since} ms`);
        process.exit(0);
      },
      (error: unknown) => {
        logger.error(`The shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}

/**
 * Stops accepting connections and resolves once every open one has ended. net's close, not
 * http's: http's also drops every idle keep-alive connection at once, and a client (a proxy's
 * connection pool) may be sending a request on one just then, which a proxy cannot retry for a
 * POST (a 502; seen through nginx). Instead each answer now carries `Connection: close` (see
 * ProcessLifecycle), and a connection left idle ends at `server.keepAliveTimeout` (5 s), after
 * the client's own idle timeout (nginx's `keepalive_timeout 4s`, undici's 4 s) has closed it from
 * its side. Whatever is still idle after that is closed.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    let sweep: NodeJS.Timeout | undefined;
    const late = setTimeout(() => {
      sweep = setInterval(() => server.closeIdleConnections(), 200);
    }, server.keepAliveTimeout + 500);
    NetServer.prototype.close.call(server, () => {
      clearTimeout(late);
      clearInterval(sweep);
      resolve();
    });
  });
}
