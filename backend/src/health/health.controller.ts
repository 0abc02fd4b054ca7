import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '../common/current-actor.js';
import { RedisConnection } from '../redis/redis.module.js';
import { ProcessLifecycle } from './process-lifecycle.js';
import { ReadinessService } from './readiness.service.js';

@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: RedisConnection,
    private readonly readiness: ReadinessService,
    private readonly lifecycle: ProcessLifecycle,
  ) {}

  @Public()
  @Get('health')
  async health(@Res({ passthrough: true }) response: FastifyReply) {
    const db = await this.dataSource.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
    const redis = await this.redis.ping();
    if (db === 'down') response.status(503);
    return { status: db === 'up' ? 'ok' : 'error', db, redis };
  }

  /**
   * Liveness: answers 200 for as long as the event loop turns, draining or not (a restart would
   * only cut the drain short). For a container HEALTHCHECK or a liveness probe.
   */
  @Public()
  @Get('health/live')
  live() {
    return { status: 'alive', draining: this.lifecycle.draining };
  }

  /**
   * Readiness: 200 when this process should get traffic, else 503 with the reason: draining
   * (from SIGTERM on), database or Redis unreachable, migrations not applied. For the proxy and
   * orchestrator; never restart on it.
   */
  @Public()
  @Get('health/ready')
  async ready(@Res({ passthrough: true }) response: FastifyReply) {
    const readiness = await this.readiness.check();
    if (readiness.status !== 'ready') response.status(503);
    return readiness;
  }
}
