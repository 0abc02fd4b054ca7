import { HTTP_SECURITY_TEXTS } from '@alignerflow/domain';
import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import typeIs from 'type-is';
import { hasBody } from '../common/body-parsers.js';
import { authenticatesByCookie } from './session-gate.js';

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
 * "Ours" is what the request was addressed to, as Fastify reads it: behind a proxy named in
 * TRUST_PROXY, its X-Forwarded-Proto and X-Forwarded-Host.
 */
export function refuseCrossSiteChanges(
  isMultipartPath: (request: FastifyRequest) => boolean,
): preHandlerHookHandler {
  return (request, reply, done) => {
    if (!CHANGES.has(request.method) || !authenticatesByCookie(request)) return done();
    const claimed = request.headers.origin ?? request.headers.referer;
    if (claimed !== undefined) {
      const own = originOf(`${request.protocol}://${request.host}`);
      if (own === null || originOf(claimed) !== own) {
        void reply.code(403).send({ error: HTTP_SECURITY_TEXTS.crossSite });
        return;
      }
    }
    if (hasBody(request)) {
      const multipart = isMultipartPath(request);
      if (!typeIs(request.raw, [multipart ? 'multipart/form-data' : 'application/json'])) {
        reply.header('Connection', 'close');
        void reply
          .code(415)
          .send({ error: multipart ? HTTP_SECURITY_TEXTS.multipartOnly : HTTP_SECURITY_TEXTS.jsonOnly });
        return;
      }
    }
    done();
  };
}
