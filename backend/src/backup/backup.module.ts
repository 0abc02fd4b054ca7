import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { CasesModule } from '../cases/cases.module.js';
import { RebuildModule } from '../rebuild/rebuild.module.js';
import { UsersModule } from '../users/users.module.js';
import { BackupController } from './backup.controller.js';
import { MaterialsStoreModule } from '../materials-store/materials-store.module.js';
import { BackupService } from './backup.service.js';
import { CaseImportService } from './case-import.service.js';

/** Backup, restore and event export; brings the projection rebuild (admin endpoint) with it. */
@Module({
  imports: [CasesModule, UsersModule, RebuildModule, MaterialsStoreModule, BillingModule],
  controllers: [BackupController],
  providers: [BackupService, CaseImportService],
  exports: [CaseImportService],
})
export class BackupModule {}
