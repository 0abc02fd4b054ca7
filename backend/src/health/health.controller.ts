import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../common/current-actor.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { RedisConnection } from '../redis/redis.module.js';

@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: RedisConnection,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Get('health')
  async health(@Res({ passthrough: true }) response: Response) {
    const db = await this.dataSource.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
    const redis = await this.redis.ping();
    if (db === 'down') response.status(503);
    return { status: db === 'up' ? 'ok' : 'error', db, redis };
  }

  /** What the SPA needs before sign-in. */
  @Public()
  @Get('config')
  clientConfig() {
    return { productName: 'AlignerFlow', basePath: this.config.basePath, demo: this.config.demoData };
  }
}
