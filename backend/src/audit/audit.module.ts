import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller.js';
import { AuditSealer } from './audit-sealer.js';

/** Tamper-evident history: the sealer (one leader among the API processes) and the verify route. */
@Module({ providers: [AuditSealer], controllers: [AuditController], exports: [AuditSealer] })
export class AuditModule {}
