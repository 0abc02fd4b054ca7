import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { AuditController } from './audit.controller.js';
import { AuditSealer } from './audit-sealer.js';
import { AUDIT_KEY, loadSigningKey } from './signing-key.js';

const PROVIDERS = [
  AuditSealer,
  { provide: AUDIT_KEY, useFactory: (config: AppConfig) => loadSigningKey(config), inject: [APP_CONFIG] },
];

/**
 * The sealer (one leader among the processes that run it: `worker` and `all`, never `api`) and
 * the signing key (read once at start, from outside the database), without HTTP.
 */
@Module({ providers: PROVIDERS, exports: PROVIDERS })
export class AuditCoreModule {}

/** Tamper-evident history: the sealer, the signing key and the verify, key and checkpoint routes. */
@Module({ imports: [AuditCoreModule], controllers: [AuditController], exports: [AuditCoreModule] })
export class AuditModule {}
