import { Controller, Get, Inject, NotFoundException, Req, Res, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../common/current-actor.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Metrics } from './metrics.js';
import { metricsAccess, METRICS_TOKEN_REFUSED } from './metrics-token.js';

/**
 * Prometheus scrapes with METRICS_TOKEN, not a session: @Public for the session gate, the token
 * checked here. Without METRICS_TOKEN the endpoint answers as if it did not exist.
 */
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Get()
  async scrape(@Req() request: FastifyRequest, @Res() response: FastifyReply): Promise<void> {
    const access = metricsAccess(this.config.metrics.token, request.headers.authorization);
    if (access === 'not_configured') throw new NotFoundException(`Cannot GET ${request.originalUrl}`);
    if (access === 'refused') throw new UnauthorizedException({ error: METRICS_TOKEN_REFUSED });
    const { contentType, body } = await this.metrics.text();
    response.header('Cache-Control', 'no-store');
    response.type(contentType).send(body);
  }
}
