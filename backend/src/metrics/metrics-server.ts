import { createServer, type Server } from 'node:http';
import type { Metrics } from './metrics.js';
import { metricsAccess, METRICS_TOKEN_REFUSED } from './metrics-token.js';

/**
 * A worker has no HTTP API: it serves `GET /metrics` alone on METRICS_PORT, under the same token
 * rule as the API's /api/metrics, so one Prometheus job configuration fits both.
 */
export async function serveMetrics(
  metrics: Metrics,
  options: { port: number; token: string | undefined; host?: string },
): Promise<Server> {
  const server = createServer((request, response) => {
    const answer = (status: number, body: string, type = 'application/json; charset=utf-8') => {
      response.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
    };
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics')
      return answer(404, JSON.stringify({ error: `Cannot ${request.method} ${path}` }));
    const access = metricsAccess(options.token, request.headers.authorization);
    if (access === 'not_configured') return answer(404, JSON.stringify({ error: `Cannot GET ${path}` }));
    if (access === 'refused') return answer(401, JSON.stringify({ error: METRICS_TOKEN_REFUSED }));
    metrics.text().then(
      ({ contentType, body }) => answer(200, body, contentType),
      () => answer(500, JSON.stringify({ error: 'Internal server error.' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  return server;
}
