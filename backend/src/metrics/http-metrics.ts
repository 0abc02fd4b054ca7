import type { onRequestHookHandler } from 'fastify';
import { isApiPath } from '../common/api-path.js';
import type { GatedRequest } from '../security/session-gate.js';
import type { Metrics } from './metrics.js';

/**
 * Times every HTTP answer, labelled by the route pattern the session gate matched (e.g.
 * /api/cases/:id), never by the raw URL: ids would make a series per case. API paths that name no
 * endpoint share one label, and so does everything outside the API (the app and its assets).
 */
export function httpRequestMetrics(metrics: Metrics, apiPrefix: string): onRequestHookHandler {
  return (request, reply, done) => {
    const started = process.hrtime.bigint();
    const response = reply.raw;
    response.once('finish', () => {
      const route = isApiPath(request.url, apiPrefix)
        ? ((request as GatedRequest).gatedRoute?.path ?? `${apiPrefix}/(unmatched)`)
        : '(app)';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.httpRequestDuration.observe(
        { method: request.method, route, status: String(response.statusCode) },
        seconds,
      );
    });
    done();
  };
}
