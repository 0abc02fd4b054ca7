import { Module } from '@nestjs/common';
import { join } from 'node:path';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CasesModule } from '../cases/cases.module.js';
import { FILE_STORAGE, LocalDiskStorage } from './file-storage.js';
import { FilesController } from './files.controller.js';
import { FilesService } from './files.service.js';
import { UploadQuota } from './upload-quota.js';
import {
  DEFAULT_UPLOAD_SWEEP,
  UnattachedUploadsSweeper,
  UPLOAD_SWEEP_OPTIONS,
} from './unattached-uploads.sweeper.js';

const uploadsDir = (config: AppConfig) => new LocalDiskStorage(join(config.dataDir, 'uploads'));

const storageFactory = {
  provide: FILE_STORAGE,
  inject: [APP_CONFIG],
  useFactory: async (config: AppConfig) => {
    const storage = uploadsDir(config);
    await storage.init();
    return storage;
  },
};

@Module({
  imports: [CasesModule],
  controllers: [FilesController],
  providers: [
    FilesService,
    UploadQuota,
    storageFactory,
    { provide: UPLOAD_SWEEP_OPTIONS, useValue: DEFAULT_UPLOAD_SWEEP },
    UnattachedUploadsSweeper,
  ],
  exports: [FilesService, FILE_STORAGE],
})
export class FilesModule {}
