import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { AuditController } from './audit.controller.js';
import { AuditSealer } from './audit-sealer.js';
import { AUDIT_KEY, loadSigningKey } from './signing-key.js';

/**
 * Tamper-evident history: the sealer (one leader among the API processes), the signing key (read
 * once at start, from outside the database) and the verify, key and checkpoint routes.
 */
@Module({
  providers: [
    AuditSealer,
    { provide: AUDIT_KEY, useFactory: (config: AppConfig) => loadSigningKey(config), inject: [APP_CONFIG] },
  ],
  controllers: [AuditController],
  exports: [AuditSealer, AUDIT_KEY],
})
export class AuditModule {}
