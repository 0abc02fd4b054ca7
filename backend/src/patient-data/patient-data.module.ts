import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module.js';
import { FilesModule } from '../files/files.module.js';
import { NotificationsCoreModule } from '../notifications/notifications.module.js';
import { ErasureService } from './erasure.service.js';
import { PatientDataController } from './patient-data.controller.js';
import { RetentionService } from './retention.service.js';

/** Erasure, file purges and retention (README.md); the cases' keys live with the event store. */
@Module({
  imports: [CasesModule, FilesModule, NotificationsCoreModule],
  controllers: [PatientDataController],
  providers: [ErasureService, RetentionService],
  exports: [ErasureService, RetentionService],
})
export class PatientDataModule {}
