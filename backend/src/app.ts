import 'reflect-metadata';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { can } from '@alignerflow/domain';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { join } from 'node:path';
import { AppModule } from './app.module.js';
import { jsonBodyLimitedBy } from './common/body-parsers.js';
import { createValidationPipe } from './common/validation.js';
import type { AppConfig } from './config/config.js';
import { grantAppRole } from './database/app-role.js';
import { runMigrations } from './database/migrations.js';
import { encryptStoredEvents } from './event-store/encryption/encrypt-stored-events.js';
import { ProcessLifecycle } from './health/process-lifecycle.js';
import { SeedService } from './seed/seed.service.js';
import { serveSpa } from './spa/serve-spa.js';
import { refuseCrossSiteChanges } from './security/cross-site.js';
import { securityHeaders } from './security/security-headers.js';
import { noStoreApiAnswers } from './security/no-store.js';
import { SessionGate, type GatedRequest } from './security/session-gate.js';
import { createRootLogger, PinoLogger } from './logging/logger.js';
import { httpRequestMetrics } from './metrics/http-metrics.js';
import { Metrics } from './metrics/metrics.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { OpenApiDocument } from './openapi/openapi-document.service.js';
import { requestContext } from './logging/request-context.middleware.js';

export interface CreateAppOptions {
  config: AppConfig;
  databaseUrl: string;
  /** The schema owner's URL (DATABASE_OWNER_URL, the embedded database's): migrations run as it. */
  ownerUrl?: string;
  logger?: LoggerService | false;
  /** Where the built SPA lives; defaults to frontend/dist of this checkout. */
  spaDir?: string;
}

/** Builds the whole HTTP application on a migrated, seeded database. Used by main and by tests. */
export async function createApp(options: CreateAppOptions): Promise<INestApplication> {
  const { config, databaseUrl } = options;
  const rootLogger = createRootLogger(config.logLevel);
  const ownerUrl = options.ownerUrl ?? config.databaseOwnerUrl ?? databaseUrl;
  // As the owner: the migrations, the one-time encryption of old events' patient fields (before
  // anything seals them), then the app role's rights over what they made.
  await runMigrations(ownerUrl, undefined, config.migrationsDir);
  await encryptStoredEvents(ownerUrl, config.masterKeyFile);
  await grantAppRole(ownerUrl, databaseUrl);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, databaseUrl), {
    bodyParser: false,
    logger: options.logger ?? new PinoLogger(rootLogger),
    // A failed start throws to the caller (main logs it and exits 1) instead of Nest ending the
    // process itself, which in a test run would end every other test file with it.
    abortOnError: false,
  });
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // The lists that clients revalidate set their own ETags (common/etag.ts); hashing every other
  // answer, command answers included, would cost a SHA-1 of each body for nothing.
  app.set('etag', false);
  const api = `${config.basePath}api`;
  // While draining, answers end their connections (see ProcessLifecycle).
  app.use(app.get(ProcessLifecycle).closeConnectionsWhileDraining);
  app.use(requestContext(options.logger === false ? undefined : rootLogger.child({ context: 'HTTP' })));
  app.use(httpRequestMetrics(app.get(Metrics), api));
  app.use(securityHeaders({ apiPrefix: api, secureCookies: config.secureCookies }));
  app.use(noStoreApiAnswers(api));
  app.use(cookieParser());
  // Nothing of a request is read before its session is known: an anonymous call to a non-public
  // endpoint answers 401 here, with its body still unread.
  app.use(new SessionGate(app).middleware(api));
  const restorePath = `${api}/restore`;
  const uploadPath = `${api}/upload`;
  app.use(refuseCrossSiteChanges((req) => (req as GatedRequest).gatedRoute?.path === uploadPath));
  // A restore carries a whole lab's data, so only a Manager may send that much; everything else
  // is a small form (an upload is multipart, streamed by the files module).
  app.use(
    jsonBodyLimitedBy((req) => {
      const { gatedRoute, actor } = req as GatedRequest;
      if (gatedRoute?.path !== restorePath) return '1mb';
      return actor && can(actor.role, 'backup') ? '200mb' : undefined;
    }),
  );
  app.setGlobalPrefix(api.slice(1));
  app.useGlobalPipes(createValidationPipe());
  app.get(OpenApiDocument).publish(buildOpenApiDocument(app, api));
  // No enableShutdownHooks(): main.ts owns SIGTERM, to drain before the modules are destroyed.
  serveSpa(app, config.basePath, options.spaDir ?? join(__dirname, '..', '..', 'frontend', 'dist'));
  try {
    await app.get(SeedService).seedEmptyStore();
  } catch (error) {
    // A refused start closes what it opened: the pools and the log listener would otherwise
    // outlive it and reconnect when their database goes away.
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
