import 'reflect-metadata';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { can } from '@alignerflow/domain';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { join } from 'node:path';
import { AppModule } from './app.module.js';
import { jsonBodyLimitedBy, leaveBodiesUnread } from './common/body-parsers.js';
import { parseCookies } from './common/cookies.js';
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
import { requestContext } from './logging/request-context.hook.js';

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
  const adapter = new FastifyAdapter({
    trustProxy: config.trustProxy,
    // Paths match as Express matched them: in any letter case, with or without a trailing slash.
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    // Node's own default: an idle keep-alive connection ends after 5 s (see health/shutdown.ts).
    keepAliveTimeout: 5_000,
    // Nothing else registers middleware, so Nest's middleware runner is not needed.
    skipMiddie: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(config, databaseUrl),
    adapter,
    {
      bodyParser: false,
      logger: options.logger ?? new PinoLogger(rootLogger),
      // A failed start throws to the caller (main logs it and exits 1) instead of Nest ending the
      // process itself, which in a test run would end every other test file with it.
      abortOnError: false,
    },
  );
  const http = app.getHttpAdapter().getInstance();
  const api = `${config.basePath}api`;
  // The hooks every request passes, in this order, once Fastify has matched its route. While
  // draining, answers end their connections (see ProcessLifecycle).
  const lifecycle = app.get(ProcessLifecycle);
  http.addHook('onRequest', lifecycle.closeConnectionsWhileDraining);
  http.addHook('onSend', lifecycle.closeAnsweredConnectionsWhileDraining);
  http.addHook(
    'onRequest',
    requestContext(options.logger === false ? undefined : rootLogger.child({ context: 'HTTP' })),
  );
  http.addHook('onRequest', httpRequestMetrics(app.get(Metrics), api));
  http.addHook('onRequest', securityHeaders({ apiPrefix: api, secureCookies: config.secureCookies }));
  http.addHook('onRequest', noStoreApiAnswers(api));
  http.addHook('onRequest', parseCookies);
  // Nothing of a request is read before its session is known: an anonymous call to a non-public
  // endpoint answers 401 here, with its body still unread.
  http.addHook('onRequest', new SessionGate(app).hook(api));
  leaveBodiesUnread(http);
  const restorePath = `${api}/restore`;
  const uploadPath = `${api}/upload`;
  http.addHook(
    'preHandler',
    refuseCrossSiteChanges((request) => (request as GatedRequest).gatedRoute?.path === uploadPath),
  );
  // A restore carries a whole lab's data, so only a Manager may send that much; everything else
  // is a small form (an upload is multipart, streamed by the files module).
  http.addHook(
    'preHandler',
    jsonBodyLimitedBy((request) => {
      const { gatedRoute, actor } = request as GatedRequest;
      if (gatedRoute?.path !== restorePath) return '1mb';
      return actor && can(actor.role, 'backup') ? '200mb' : undefined;
    }),
  );
  app.setGlobalPrefix(api.slice(1));
  app.useGlobalPipes(createValidationPipe());
  app.get(OpenApiDocument).publish(buildOpenApiDocument(app, api));
  // No enableShutdownHooks(): main.ts owns SIGTERM, to drain before the modules are destroyed.
  await serveSpa(http, config.basePath, options.spaDir ?? join(__dirname, '..', '..', 'frontend', 'dist'));
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
