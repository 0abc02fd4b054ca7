import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { HTTP_SECURITY_TEXTS } from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { attachSession, SESSION_COOKIE, sessionToken } from '../sessions/session-token.js';
import { hashToken, SessionsService } from '../sessions/sessions.service.js';
import { isApiPath } from '../common/api-path.js';
import { IS_PUBLIC, type AuthenticatedRequest } from '../common/current-actor.js';

/** The endpoint an API request will reach, as the gate found it before anything else ran. */
export interface GatedRoute {
  /** The route's full path pattern, e.g. /api/cases/:id. */
  path: string;
  isPublic: boolean;
}

export interface GatedRequest extends AuthenticatedRequest {
  /** Set once the session (if any) has been looked up, so that the AuthGuard does not ask again. */
  sessionResolved?: boolean;
  /** Undefined for an API path that names no endpoint. */
  gatedRoute?: GatedRoute;
}

/** How the caller authenticates: cross-site defences apply only to a cookie that a browser sends by itself. */
export function authenticatesByCookie(request: FastifyRequest): boolean {
  if (request.headers.authorization?.startsWith('Bearer ')) return false;
  return Boolean(request.cookies?.[SESSION_COOKIE]);
}

/** Answers at once and drops the connection, so that a body still on its way is never read. */
export function refuseUnread(reply: FastifyReply, status: number, error: string): void {
  reply.header('Connection', 'close');
  void reply.code(status).send({ error });
}

/**
 * Checks the session of every API request before any body parser runs: an anonymous request to an
 * endpoint that is not @Public() answers 401 without a byte of its body read. The public endpoints
 * are read from the controllers' own metadata, so a new @Public() route needs nothing here.
 */
export class SessionGate {
  private readonly discovery: DiscoveryService;
  private readonly scanner = new MetadataScanner();
  private readonly reflector: Reflector;
  private readonly sessions: SessionsService;

  /** Built from the application's container once its modules exist, before it listens. */
  constructor(app: INestApplication) {
    this.discovery = new DiscoveryService(app.get(ModulesContainer));
    this.reflector = app.get(Reflector);
    this.sessions = app.get(SessionsService);
  }

  /** Every endpoint under the API prefix, with whether it is @Public(). */
  routes(apiPrefix: string): { method: string; path: string; isPublic: boolean }[] {
    const routes: { method: string; path: string; isPublic: boolean }[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | undefined;
      if (!controller || !wrapper.instance) continue;
      const prototype = Object.getPrototypeOf(wrapper.instance) as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as (...args: unknown[]) => unknown;
        const methodPaths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (methodPaths === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const isPublic = Boolean(this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]));
        for (const controllerPath of asList(Reflect.getMetadata(PATH_METADATA, controller) as string))
          for (const methodPath of asList(methodPaths))
            routes.push({
              method: method.toLowerCase(),
              path: joinPath(apiPrefix, controllerPath, methodPath),
              isPublic,
            });
      }
    }
    return routes;
  }

  /**
   * An onRequest hook: Fastify has matched the route before it runs, so the route's pattern is
   * known without a second router, and no body has been read yet.
   */
  hook(apiPrefix: string): onRequestHookHandler {
    const publicRoutes = new Set(
      this.routes(apiPrefix)
        .filter((route) => route.isPublic)
        .map((route) => routeKey(route.method, route.path)),
    );
    return (request, reply, done) => {
      const gated = request as GatedRequest;
      const { url, method } = request.routeOptions;
      // The app's wildcard (the PWA's pages) and Fastify's 404 are no endpoint of the API.
      if (url !== undefined && isApiPath(url, apiPrefix) && !url.endsWith('*')) {
        // Fastify answers HEAD through the route it adds beside each GET (the app declares none for
        // HEAD), so a HEAD request is let through exactly when its GET would be.
        const routeMethod = method === 'HEAD' ? 'GET' : method;
        gated.gatedRoute = { path: url, isPublic: publicRoutes.has(routeKey(String(routeMethod), url)) };
      } else if (!isApiPath(request.url, apiPrefix)) return done();
      this.resolveSession(gated).then(() => {
        if (gated.actor || gated.gatedRoute?.isPublic) return done();
        refuseUnread(reply, 401, HTTP_SECURITY_TEXTS.notSignedIn);
      }, done);
    };
  }

  private async resolveSession(request: GatedRequest): Promise<void> {
    const token = sessionToken(request);
    if (token) {
      request.sessionTokenHash = hashToken(token);
      attachSession(request, await this.sessions.resolve(request.sessionTokenHash));
    }
    request.sessionResolved = true;
  }
}

function asList(paths: string | string[] | undefined): string[] {
  return paths === undefined ? [''] : Array.isArray(paths) ? paths : [paths];
}

function joinPath(...parts: string[]): string {
  const joined = parts
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');
  return `/${joined}`;
}

function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.toLowerCase().replace(/\/+$/, '')}`;
}
