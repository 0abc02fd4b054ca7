import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { HTTP_SECURITY_TEXTS } from '@alignerflow/domain';
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { attachSession, SESSION_COOKIE, sessionToken } from '../sessions/session-token.js';
import { hashToken, SessionsService } from '../sessions/sessions.service.js';
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
export function authenticatesByCookie(request: Request): boolean {
  if (request.headers.authorization?.startsWith('Bearer ')) return false;
  return Boolean((request.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE]);
}

/** Whether the request carries a body at all (a POST without one, e.g. advance, is a plain call). */
export function hasBody(request: Request): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length']) > 0;
}

/** Answers at once and drops the connection, so that a body still on its way is never read. */
export function refuseUnread(response: Response, status: number, error: string): void {
  response.setHeader('Connection', 'close');
  response.status(status).json({ error });
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

  /** Every endpoint under the API prefix, matched by Express's own router as Nest's routes are. */
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

  middleware(apiPrefix: string): RequestHandler {
    const find = routeFinder(this.routes(apiPrefix), apiPrefix);
    const apiPath = new RegExp(`^${escapeRegExp(apiPrefix)}(/|$)`, 'i');
    const check = (request: GatedRequest, response: Response, next: NextFunction) => {
      this.resolveSession(request).then(() => {
        if (request.actor || request.gatedRoute?.isPublic) return next();
        refuseUnread(response, 401, HTTP_SECURITY_TEXTS.notSignedIn);
      }, next);
    };
    return (request: Request, response: Response, next: NextFunction) => {
      const path = request.path;
      if (!apiPath.test(path)) return next();
      // The router itself would answer an OPTIONS request it has no route for; Nest has none either.
      if (request.method !== 'OPTIONS') {
        try {
          (request as GatedRequest).gatedRoute = find(request.method, path);
        } catch (error) {
          // A malformed escape in a parameter: the router's 400, as Nest's own router would answer.
          return next(error);
        }
      }
      check(request, response, next);
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

/**
 * The route a request will reach, matched by Express's own route layers (the same path syntax,
 * case and trailing-slash rules as Nest's routes), first registered wins. Only the layers of
 * the request's method whose first segment can match are tried: walking a router of every
 * endpoint per request cost several times the lookup (docs/performance.md, "The HTTP layer").
 */
export function routeFinder(
  routes: { method: string; path: string; isPublic: boolean }[],
  apiPrefix: string,
): (method: string, path: string) => GatedRoute | undefined {
  const router = Router();
  // Express's types leave out a layer's match, which the gate needs.
  const layers = router.stack as unknown as Layer[];
  const found = new Map<Layer, GatedRoute>();
  for (const route of routes) {
    (router[route.method as 'get'] as (path: string, handler: RequestHandler) => unknown)(route.path, noop);
    found.set(layers.at(-1)!, { path: route.path, isPublic: route.isPublic });
  }
  const firstSegment = (path: string) =>
    path
      .slice(apiPrefix.length + 1)
      .split('/', 1)[0]
      .toLowerCase();
  const literalFirstSegments = new Set(
    [...found.values()]
      .map((route) => firstSegment(route.path))
      .filter((segment) => !/[:*{(?]/.test(segment)),
  );
  /** For each method and literal first segment, the layers to try, in registration order. */
  const buckets = new Map<string, Layer[]>();
  const bucket = (method: string, segment: string | undefined) => {
    const key = `${method} ${segment ?? ':'}`;
    let list = buckets.get(key);
    if (!list) {
      list = layers.filter((layer) => {
        if (!layer.route!._handlesMethod(method)) return false;
        const own = firstSegment(found.get(layer)!.path);
        return !literalFirstSegments.has(own) || own === segment;
      });
      buckets.set(key, list);
    }
    return list;
  };
  return (method, path) => {
    const segment = firstSegment(path);
    const candidates = bucket(method.toLowerCase(), literalFirstSegments.has(segment) ? segment : undefined);
    for (const layer of candidates) if (layer.match(path)) return found.get(layer);
    return undefined;
  };
}

const noop = () => undefined;

/** What the gate uses of a router's layer: its match, with Express's path rules, and its route. */
interface Layer {
  match(path: string): unknown;
  route?: { _handlesMethod(method: string): boolean };
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
