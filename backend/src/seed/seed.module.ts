import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { CasesModule } from '../cases/cases.module.js';
import { MaterialsStoreModule } from '../materials-store/materials-store.module.js';
import { UsersModule } from '../users/users.module.js';
import { SeedService } from './seed.service.js';

/** The first start's demo data and the check of a store's passwords (app.ts runs it once). */
@Module({
  imports: [UsersModule, CasesModule, MaterialsStoreModule, BillingModule],
  providers: [SeedService],
  exports: [SeedService],
})
export class SeedModule {}
