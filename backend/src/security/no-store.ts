import type { onRequestHookHandler } from 'fastify';
import { pathAfterApiPrefix } from '../common/api-path.js';

/**
 * The API answers that hold no user's or patient's data: liveness, the client's settings, the
 * API's own description and docs page, the push public key. Everything else under the API prefix
 * may carry a case, a name or a file.
 */
const SHAREABLE = /^\/(health(\/.*)?|config|openapi\.json|docs(\/.*)?|push\/vapid-public-key)$/;

/**
 * `Cache-Control: no-store` on every other API answer (api.md, "Patient data"): no browser,
 * proxy or shared computer keeps a copy on disk. Set before the route runs, so an answer that
 * needs its own header (the docs page's assets) still sets it. The list routes' ETags keep
 * working: the app keeps its own copy and sends If-None-Match itself (frontend/src/api/client.ts),
 * which no-store does not forbid; only the browser's HTTP cache is bypassed.
 */
export function noStoreApiAnswers(apiPrefix: string): onRequestHookHandler {
  return (request, reply, done) => {
    const pathUnderPrefix = pathAfterApiPrefix(request.url, apiPrefix);
    // On the raw answer: a route's own header (set on the reply) still wins, and a streamed answer keeps it.
    if (pathUnderPrefix !== null && !SHAREABLE.test(pathUnderPrefix))
      reply.raw.setHeader('Cache-Control', 'no-store');
    done();
  };
}
