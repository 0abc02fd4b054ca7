import { Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { resolveDatabaseUrl } from './database/embedded-postgres.js';
import { ProcessLifecycle } from './health/process-lifecycle.js';
import { closeServer, onTerminationSignal } from './health/shutdown.js';
import { LiveStreamService } from './live/live-stream.service.js';
import { createRootLogger, PinoLogger } from './logging/logger.js';
import { runWorkerProcess } from './worker-main.js';

async function bootstrap(): Promise<void> {
  // Lines written before the app exists (the embedded database's start) take the same format.
  const config = loadConfig();
  Logger.overrideLogger(new PinoLogger(createRootLogger(config.logLevel)));
  const logger = new Logger('AlignerFlow');
  if (config.processRole === 'worker') return runWorkerProcess(config);
  const database = await resolveDatabaseUrl(config, (message) => logger.log(message));
  const app = await createApp({ config, databaseUrl: database.url, ownerUrl: database.ownerUrl });
  await app.listen(config.port, config.host);
  logger.log(`AlignerFlow is listening on http://localhost:${config.port}${config.basePath}`);
  if (config.demoData)
    logger.log('Demo mode: sign in as admin / demo (see README for the other demo users).');

  /**
   * The drain, in the order that loses nothing: readiness turns 503 (the proxy stops routing
   * here), the listener closes after SHUTDOWN_DELAY_MS, live streams get a `retry:` hint and end
   * (browsers reconnect to another instance and resume from their Last-Event-ID), requests in
   * flight finish and are answered, and only then do the modules close the database and Redis.
   */
  onTerminationSignal({
    logger,
    timeoutMs: config.shutdown.timeoutMs,
    shutdown: async () => {
      app.get(ProcessLifecycle).beginDrain();
      if (config.shutdown.delayMs > 0) await sleep(config.shutdown.delayMs);
      const closed = closeServer(app.getHttpServer() as Server);
      logger.log('No longer accepting connections; finishing requests in flight');
      // Its module hook, called early: open streams would otherwise keep the server from closing.
      await app.get(LiveStreamService).onModuleDestroy();
      await closed;
      await app.close();
      await database.stop();
    },
  });
}

bootstrap().catch((error: unknown) => {
  const message =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  console.error(message);
  process.exit(1);
});
