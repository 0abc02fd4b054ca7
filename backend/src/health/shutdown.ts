import type { LoggerService } from '@nestjs/common';
import type { Server } from 'node:http';

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
    logger.log(`${signal}: shutting down gracefully (at most ${timeoutMs} ms)`);
    const force = setTimeout(() => {
      logger.error(`The shutdown took longer than ${timeoutMs} ms (SHUTDOWN_TIMEOUT_MS): exiting now`);
      process.exit(1);
    }, timeoutMs);
    shutdown(signal).then(
      () => {
        clearTimeout(force);
        logger.log('Shut down cleanly');
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
 * Stops accepting connections and resolves once every open one has ended. Node closes the idle
 * keep-alive connections at `close()`; a connection busy with a request becomes idle after its
 * answer (which carries `Connection: close` while draining, see app.ts) and is closed then.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    // Connections whose client ignored `Connection: close` are swept up as they fall idle.
    const sweep = setInterval(() => server.closeIdleConnections(), 200);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
  });
}
