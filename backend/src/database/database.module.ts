import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/config.js';

/**
 * The process's pool on the application database, for the API and the notification workers
 * alike. No entities: every read and write is SQL of its module (the event store, projections).
 */
export function databaseModule(config: AppConfig, databaseUrl: string): DynamicModule {
  return TypeOrmModule.forRoot({
    type: 'postgres',
    url: databaseUrl,
    entities: [],
    synchronize: false,
    extra: { max: config.databasePoolSize },
  });
}
