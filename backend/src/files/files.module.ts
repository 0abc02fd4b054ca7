import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { diskStorage } from 'multer';
import { join } from 'node:path';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CasesModule } from '../cases/cases.module.js';
import { FILE_STORAGE, LocalDiskStorage } from './file-storage.js';
import { FilesController } from './files.controller.js';
import { FilesService } from './files.service.js';

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
  imports: [
    CasesModule,
    // Uploads stream to a temporary file next to the store, never into memory.
    MulterModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        storage: diskStorage({ destination: uploadsDir(config).tempDir }),
      }),
    }),
  ],
  controllers: [FilesController],
  providers: [FilesService, storageFactory],
  exports: [FilesService],
})
export class FilesModule {}
