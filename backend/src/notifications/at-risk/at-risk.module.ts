import { Module } from '@nestjs/common';
import { BillingModule } from '../../billing/billing.module.js';
import { CasesModule } from '../../cases/cases.module.js';
import { MaterialsStoreModule } from '../../materials-store/materials-store.module.js';
import { NotificationsCoreModule } from '../notifications.module.js';
import { AtRiskScanner } from './at-risk-scanner.js';

/** The at-risk scan: in the worker processes (and `all`), one at a time. */
@Module({
  imports: [CasesModule, NotificationsCoreModule, MaterialsStoreModule, BillingModule],
  providers: [AtRiskScanner],
  exports: [AtRiskScanner],
})
export class AtRiskModule {}
