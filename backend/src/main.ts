import { Logger } from '@nestjs/common';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { resolveDatabaseUrl } from './database/embedded-postgres.js';
import { runWorkerProcess } from './notifications/worker-main.js';

async function bootstrap(): Promise<void> {
  const logger = new Logger('AlignerFlow');
  const config = loadConfig();
  if (config.processRole === 'worker') return runWorkerProcess(config);
  const database = await resolveDatabaseUrl(process.env, (message) => logger.log(message));
  const app = await createApp({ config, databaseUrl: database.url });
  await app.listen(config.port, process.env.HOST ?? '0.0.0.0');
  logger.log(`AlignerFlow is listening on http://localhost:${config.port}${config.basePath}`);
  if (config.demoData)
    logger.log('Demo mode: sign in as admin / demo (see README for the other demo users).');
  const shutdown = async (signal: string) => {
    logger.log(`${signal}: shutting down`);
    await app.close();
    await database.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
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
