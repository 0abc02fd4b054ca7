import { HTTP_SECURITY_TEXTS } from '@alignerflow/domain';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticatesByCookie, hasBody } from './session-gate.js';

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The origin of a URL as a browser sends it (lower case, no default port), or null when it is none. */
function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The browser sends the session cookie with any request to us, whichever page starts it. A change
 * carried by the cookie alone must therefore come from our own pages: its Origin (or Referer) must
 * be ours, and its body JSON, which another site's form cannot send without asking us first (CORS).
 * "Ours" is what the request was addressed to, as Express reads it: behind a proxy named in
 * TRUST_PROXY, its X-Forwarded-Proto and X-Forwarded-Host.
 */
export function refuseCrossSiteChanges(isMultipartPath: (request: Request) => boolean): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    if (!CHANGES.has(request.method) || !authenticatesByCookie(request)) return next();
    const claimed = request.headers.origin ?? request.headers.referer;
    if (claimed !== undefined) {
      const own = originOf(`${request.protocol}://${request.host}`);
      if (own === null || originOf(claimed) !== own) {
        response.status(403).json({ error: HTTP_SECURITY_TEXTS.crossSite });
        return;
      }
    }
    if (hasBody(request)) {
      const multipart = isMultipartPath(request);
      if (!request.is(multipart ? 'multipart/form-data' : 'application/json')) {
        response.setHeader('Connection', 'close');
        response
          .status(415)
          .json({ error: multipart ? HTTP_SECURITY_TEXTS.multipartOnly : HTTP_SECURITY_TEXTS.jsonOnly });
        return;
      }
    }
    next();
  };
}
