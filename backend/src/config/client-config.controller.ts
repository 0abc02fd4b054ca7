import { Controller, Get, Inject } from '@nestjs/common';
import { PRODUCT_NAME, type ClientConfig } from '@alignerflow/domain';
import { Public } from '../common/current-actor.js';
import { APP_CONFIG, type AppConfig } from './config.js';

/** `GET /api/config`: what the app needs to know of this deployment before anyone signs in. */
@Controller()
export class ClientConfigController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Public()
  @Get('config')
  clientConfig(): ClientConfig {
    return { productName: PRODUCT_NAME, basePath: this.config.basePath, demo: this.config.demoData };
  }
}
